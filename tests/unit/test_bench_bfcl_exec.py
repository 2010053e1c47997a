"""BFCL's retired executable categories (bench/bfcl_exec.py) on inline fixtures shaped like bfcl-eval's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import bfcl
from bench.bfcl_exec import load_exec, parse_call, possible_answer

BINOMIAL = {
    "name": "calc_binomial_probability",
    "description": "Calculates the probability of getting k successes in n trials.",
    "parameters": {
        "type": "dict",
        "properties": {
            "n": {"type": "integer", "description": "The number of trials."},
            "k": {"type": "integer", "description": "The number of successes."},
            "p": {"type": "float", "description": "The probability of success."},
            "rounding": {"type": "integer", "description": "Digits to round to.", "default": 3},
            "label": {"type": "string", "description": "A label."},
        },
        "required": ["n", "k", "p"],
    },
}
ORDER = {
    "name": "order_food",
    "description": "Orders food.",
    "parameters": {
        "type": "dict",
        "properties": {"price": {"type": "array", "items": {"type": "float"}, "description": "Prices."}},
        "required": ["price"],
    },
}


def test_parse_call_evaluates_arithmetic_and_containers() -> None:
    name, args = parse_call("calc_binomial_probability(n=20, k=5, p=1/6)")
    assert name == "calc_binomial_probability"
    assert args == {"n": 20, "k": 5, "p": pytest.approx(1 / 6)}
    assert parse_call("f(xs=[[1,2],(3,-4)], d={'a': 2**3})")[1] == {"xs": [[1, 2], [3, -4]], "d": {"a": 8}}
    assert parse_call("math.hypot(x=1)")[0] == "math.hypot"


@pytest.mark.parametrize("text", ["f(1, x=2)", "f(x=g(1))", "f(x=y)", "not a call", "f(x=[*y])"])
def test_parse_call_refuses_what_is_not_a_literal_keyword_call(text: str) -> None:
    with pytest.raises((ValueError, SyntaxError)):
        parse_call(text)


def test_possible_answer_marks_left_out_parameters_optional_and_keeps_defaults() -> None:
    answer = possible_answer("calc_binomial_probability(n=20, k=5, p=1/2)", [BINOMIAL])
    assert answer == {
        "calc_binomial_probability": {"n": [20], "k": [5], "p": [0.5], "rounding": ["", 3], "label": [""]}
    }


def test_possible_answer_makes_integers_floats_where_the_doc_says_float() -> None:
    assert possible_answer("order_food(price=[0.1, 10])", [ORDER]) == {"order_food": {"price": [[0.1, 10.0]]}}
    assert isinstance(possible_answer("calc_binomial_probability(n=2, k=1, p=1)", [BINOMIAL])
                      ["calc_binomial_probability"]["p"][0], float)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "why"),
    [("other(n=1)", "does not offer"), ("calc_binomial_probability(n=1, price=3)", "undocumented")],
)
def test_possible_answer_refuses_a_truth_that_does_not_fit_the_docs(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        possible_answer(text, [BINOMIAL])


def _write(root: Path, category: str, entries: list[dict[str, Any]], truths: list[dict[str, Any]]) -> None:
    for folder, rows in (("question", entries), ("possible_answer", truths)):
        path = root / "unused_datasets" / folder / f"BFCL_v4_{category}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def test_load_exec_hints_docs_and_leaves_out_broken_entries(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = [{"role": "user", "content": "Chance of 5 sixes in 20 rolls?"}]
    entries = [
        {"id": "exec_multiple_0", "question": [question], "function": [BINOMIAL, ORDER]},
        {"id": "exec_multiple_1", "question": [question], "function": [BINOMIAL, ORDER]},
    ]
    truths = [
        {"id": "exec_multiple_0", "ground_truth": ["calc_binomial_probability(n=20, k=5, p=1/6)"]},
        {"id": "exec_multiple_1", "ground_truth": ["order_food(price=[1], tip=2)"]},
    ]
    _write(tmp_path, "exec_multiple", entries, truths)
    loaded = load_exec(tmp_path, "exec_multiple")
    assert [entry["id"] for entry, _ in loaded] == ["exec_multiple_0"]
    assert "exec_multiple_1 left out" in capsys.readouterr().err
    entry, answers = loaded[0]
    assert entry["function"][0]["description"].endswith("Note that the provided function is in Python 3 syntax.")
    assert answers[0]["calc_binomial_probability"]["k"] == [5]


def test_the_exec_categories_are_opt_in() -> None:
    assert "exec_multiple" not in bfcl.parse_args([]).categories
    assert bfcl.parse_args(["--categories", "exec_multiple,exec_simple"]).categories == ["exec_multiple", "exec_simple"]
    with pytest.raises(SystemExit):
        bfcl.parse_args(["--categories", "exec_parallel"])


def test_a_run_header_names_the_command_and_the_revision() -> None:
    args = bfcl.parse_args(["--split", "dev", "--limit", "2", "--categories", "exec_multiple"])
    header = bfcl.run_header(args, ["--split", "dev"], "m.gguf", "2026.3.23", 12.4)
    assert header[0] == "- command: `python -m bench.bfcl --split dev`"
    assert header[1].startswith("- revision: ") and header[1] != "- revision: "
    assert "12s in all" in header[2] and "`m.gguf`" in header[3] and "limit 2" in header[4]
