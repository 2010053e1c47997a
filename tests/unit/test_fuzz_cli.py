"""Fuzz: the command line and the benchmark's task files.

`agentcore.cli.main(argv)` with random argument lists (every flag of `build_parser`, with random values) returns an
exit code, or argparse exits with 2 (0 for --help); no other exception, no "unexpected" error line. No real model
loads: the loader and the registry's pull are replaced by a scripted model, real calls are blocked anyway, and
unexpected exceptions are re-raised (AGENTCORE_TRACEBACK=1) so that the test sees them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from fuzz_settings import count, fuzz, json_values, report_cases
from hypothesis import example, given
from hypothesis import strategies as st

from agentcore.cli import build_parser, main
from agentcore.log import disable_logging
from agentcore.messages import ModelRequest, ToolCall
from agentcore.testing import FunctionModel
from bench.suite import TaskFileError, load_task_file, parse_task


@pytest.fixture(scope="module", autouse=True)
def _cases(request: pytest.FixtureRequest) -> Iterator[None]:
    yield from report_cases(request)


def scripted_answer(request: ModelRequest) -> ToolCall | str:
    """A final answer when allowed; else a call that succeeds (a fresh calculator expression each time, so that
    it is never a repeated call) or fails validation. Never the http tool with valid arguments: no network."""
    names = [spec.name for spec in request.tools]
    if not request.tools or request.allow_final:
        return "42"
    if "calculator" in names:
        return ToolCall("calculator", {"expression": f"{len(request.messages)} + 1"})
    if "read_file" in names:
        return ToolCall("read_file", {"path": "notes.txt"})
    return ToolCall(names[0], {})


async def fake_load_model_async(spec: Any, *, progress: Any = None, **settings: Any) -> FunctionModel:
    return FunctionModel(scripted_answer, name=str(spec))


@pytest.fixture(scope="module", autouse=True)
def _no_real_models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Scripted models for every spec, pulls that download nothing, and a scratch folder as the working directory
    (with a workspace `ws/` holding notes.txt)."""
    from agentcore.models import loader, registry

    home = tmp_path_factory.mktemp("cli")
    (home / "ws").mkdir()
    (home / "ws" / "notes.txt").write_text("price: 12\n")
    patch = pytest.MonkeyPatch()
    patch.chdir(home)
    patch.setenv("AGENTCORE_BLOCK_REAL_MODELS", "1")
    patch.setenv("AGENTCORE_TRACEBACK", "1")
    patch.setenv("AGENTCORE_CACHE", str(home / "cache"))
    patch.delenv("AGENTCORE_LOG", raising=False)
    patch.setattr(loader, "load_model_async", fake_load_model_async)
    patch.setattr(loader, "load_model", lambda spec, **_: FunctionModel(scripted_answer, name=str(spec)))
    patch.setattr(registry, "pull", lambda name, **_: registry.model_path(name))  # checks the name, fetches nothing
    yield
    patch.undo()
    disable_logging()


# --- argument lists ----------------------------------------------------------------------------------------------

# Real argv cannot hold a NUL byte; it can hold surrogate escapes of undecodable bytes.
argv_text = st.text(alphabet=st.characters(blacklist_characters="\x00"), max_size=30) | st.sampled_from(
    ["", " ", "-", "--", "-x", "--nope", "\udcff", "é", "a then b, then c", "What is 17 * 23?"]
)
NUMBERS = ["0", "-1", "1", "8", "3.5", "1e-300", "1e309", "nan", "inf", "-inf", "0x10", "10" * 12, "", "two"]
VALUES: dict[str, list[str]] = {
    "--model": [
        "qwen2.5-coder-0.5b",
        "smollm2-135m",
        "http://127.0.0.1:9/v1",
        "https://example.invalid/v1/",
        "ftp://example.org/model",
        "model.gguf",
        "ws/notes.txt",
        "ws",
        "/",
        "~",
        "nope",
        "x" * 300,  # a name over NAME_MAX: os.stat raises OSError(ENAMETOOLONG)
        " ",
    ],
    "--tools": ["calculator", "files", "http", "calculator,files", "CALCULATOR, files ,", ",", "", "nope", "files,x"],
    "--workspace": ["ws", "missing", "ws/notes.txt", ".", "/", "~"],
    "--http-allow": ["example.org", ".example.org", "", "*", "http://example.org/path", "localhost:8080"],
}
VALUES["--advisor"] = VALUES["--model"]


def _run_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = sub.choices["run"]
    return parser


def flag_tokens(action: argparse.Action) -> st.SearchStrategy[list[str]]:
    """One use of a flag of `agentcore run`: the flag, then a value that fits, or almost fits, its type."""
    flag = st.sampled_from(action.option_strings)
    if action.nargs == 0:
        return flag.map(lambda f: [f])
    if action.choices is not None:
        value = st.sampled_from([str(c) for c in action.choices]) | argv_text
    elif action.type in (int, float):
        value = st.sampled_from(NUMBERS) | st.integers().map(str) | st.floats().map(repr)
    else:
        value = st.sampled_from(VALUES.get(action.option_strings[-1], ["x"])) | argv_text
    return st.tuples(flag, value).map(list)


RUN_FLAGS = [
    action for action in _run_parser()._actions if action.option_strings and "--help" not in action.option_strings
]
run_argvs = st.builds(
    lambda flags, task, first: [
        "run",
        *([task] if first else []),
        *[t for f in flags for t in f],
        *([] if first else [task]),
    ],
    st.lists(st.one_of(*(flag_tokens(a) for a in RUN_FLAGS)), max_size=6),
    argv_text,
    st.booleans(),
)
# Flags with values that pass the checks, so that most of these reach a whole (scripted) run.
GOOD_VALUES: dict[str, list[str]] = {
    "--model": ["qwen2.5-coder-0.5b", "smollm2-135m", "http://127.0.0.1:9/v1"],
    "--tools": ["calculator", "files", "calculator,files", "calculator,http", ""],
    "--workspace": ["ws"],
    "--http-allow": ["example.org"],
    "--max-steps": ["1", "2", "8"],
    "--timeout": ["30", "0.5"],
    "--threads": ["1", "2"],
    "--n-ctx": ["512", "4096"],
    "--gpu-layers": ["-1", "0", "99"],
}
GOOD_VALUES["--advisor"] = GOOD_VALUES["--model"]
TASKS = [
    "What is 17 * 23?",
    "Read notes.txt and tell me the price.",
    "Use the calculator to add 2 and 3.",
    "Read notes.txt, then multiply the price by 3, then add 1",
    "How many legs does a spider have?",
    "If it rains, then stay home.",
]
tasks = st.sampled_from(TASKS) | st.text(min_size=1, max_size=60).filter(lambda t: t.strip() and t[0] not in "-\x00")


def good_flag_tokens(action: argparse.Action) -> st.SearchStrategy[list[str]]:
    flag = action.option_strings[-1]
    if action.nargs == 0:
        return st.just([flag])
    values = [str(c) for c in action.choices] if action.choices is not None else GOOD_VALUES.get(flag, ["x"])
    return st.sampled_from(values).map(lambda value: [flag, value])


good_run_argvs = st.builds(
    lambda flags, task: ["run", *[t for f in flags for t in f], "--workspace", "ws", "--http-allow", "x.org", task],
    st.lists(st.one_of(*(good_flag_tokens(a) for a in RUN_FLAGS)), max_size=5),
    tasks.filter(lambda t: "\x00" not in t),
)
argvs = st.one_of(
    good_run_argvs,
    good_run_argvs,
    run_argvs,
    st.sampled_from([["models"], ["models", "list"], ["models", "pull"], ["models", "list", "x"], [], ["--help"]]),
    st.tuples(st.just(["models", "pull"]), st.sampled_from(VALUES["--model"]) | argv_text).map(lambda p: [*p[0], p[1]]),
    st.lists(argv_text, max_size=5),
)


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Hang("main() ran for over 20 s")


def run_main(argv: list[str]) -> tuple[int, str]:
    """(exit code, stderr) of main(argv); argparse's SystemExit becomes its code."""
    err = io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code: Any = main(argv)
    except SystemExit as exc:
        assert exc.code in (0, 2), (argv, exc.code)  # 2: a usage error; 0: --help
        code = exc.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        disable_logging()  # --json-log turns on a process-wide sink
    return code, err.getvalue()


@fuzz(200)
@given(argvs)
@example(["run", "--model", "x" * 300, "What is 2 + 2?"])
@example(["run", "--timeout", "nan", "t"])
@example(["run", "--max-steps", "0", "t"])
@example(["run", "--route", "auto", "Read notes.txt, then multiply the price by 3, then add 1"])
@example(["run", "--advisor", "smollm2-135m", "--advice-mode", "both", "--optimize", "--json-log", "What is 6*7?"])
@example(["run", "--tools", "files", "--workspace", "ws", "--allow-write", "Use read_file on notes.txt"])
@example(["run", "--tools", "http", "--http-allow", "example.org", "Fetch the page"])
@example(["models", "pull", "nope"])
@example(["run", "--model", "\udcff", "t"])
@example(["run", "--memory", "x", "\ud800"])  # a task the shell could not decode: a user error
def test_cli_returns_an_exit_code_for_any_argv(argv: list[str]) -> None:
    count("cli.main")
    code, err = run_main(argv)
    assert isinstance(code, int) and code in (0, 1, 2, 3), (argv, code, err)
    assert "Traceback" not in err and "unexpected" not in err, (argv, err)


# Known crashes, left to their owners (their inputs are left out of the strategies above, so that the fuzz test
# finds new crashes only).
LONG_NAME = "x" * 300  # one path component over NAME_MAX (255): os.stat raises OSError(ENAMETOOLONG)


def test_cli_with_an_overlong_workspace_is_a_user_error() -> None:
    count("cli.main")
    assert run_main(["run", "--tools", "files", "--workspace", LONG_NAME, "Read notes.txt"])[0] == 1


# --- task files of the benchmark ------------------------------------------------------------------------------

GOOD = {"id": "s01", "family": "single", "task": "What is 2+2?", "tools": ["calculator"], "check": {}}
checks = st.fixed_dictionaries(
    {"kind": st.sampled_from(["number", "contains", "exact", "regex", "other"]) | json_values, "value": json_values},
    optional={"tol": json_values},
)
# The hostile inputs found earlier (a{4294967296}, 2000 nested groups) have their own tests below.
regexes = st.sampled_from(["(?i)paris", "[", "a{99}", "(a)" * 50, "(?P<x>a)(?P=y)", r"\d+", "*"])
task_dicts = st.one_of(
    st.fixed_dictionaries(
        {
            "id": json_values,
            "family": st.sampled_from(["single", "chain"]) | json_values,
            "task": json_values,
            "tools": st.lists(st.sampled_from(["calculator", "lookup", "nope"])) | json_values,
            "check": checks | st.fixed_dictionaries({"kind": st.just("regex"), "value": regexes}),
        },
        optional={"ref": json_values},
    ),
    st.builds(lambda pattern: {**GOOD, "check": {"kind": "regex", "value": pattern}}, regexes),
    json_values,
)
task_lines = st.one_of(
    task_dicts.map(json.dumps),
    # a file holds UTF-8: no lone surrogates (Cs), which no file can carry
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cs",), blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
        ),
        max_size=40,
    ),
    st.sampled_from(["", "// comment", "[" * 500, "1" * 5000, "{" + '"id": ' * 3 + "}"]),
)


def _parse_or_refuse(data: Any) -> None:
    with contextlib.suppress(ValueError):  # TaskFileError is one too
        parse_task(data)


@fuzz(150)
@given(task_dicts)
@example({**GOOD, "check": {"kind": "regex", "value": "[a-"}})
@example({**GOOD, "check": {"kind": "number", "value": 4, "tol": float("nan")}})
def test_task_line_gives_a_task_or_a_value_error(data: Any) -> None:
    count("bench.parse_task")
    _parse_or_refuse(data)


@fuzz(80)
@given(st.lists(task_lines, max_size=5))
def test_task_file_gives_tasks_or_a_task_file_error(lines: list[str]) -> None:
    count("bench.load_task_file")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tasks.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8")
        try:
            tasks = load_task_file(path)
        except TaskFileError as exc:
            assert str(path) in str(exc)
            return
        assert all(task.id for task in tasks)


def test_task_with_a_huge_regex_repeat_is_refused_with_a_value_error() -> None:
    count("bench.parse_task")
    _parse_or_refuse({**GOOD, "check": {"kind": "regex", "value": "a{4294967296}"}})


def test_task_with_a_deeply_nested_regex_is_refused_with_a_value_error() -> None:
    count("bench.parse_task")
    _parse_or_refuse({**GOOD, "check": {"kind": "regex", "value": "(" * 2000 + ")" * 2000}})


def test_task_file_with_a_deeply_nested_line_is_refused(tmp_path: Path) -> None:
    count("bench.load_task_file")
    path = tmp_path / "tasks.jsonl"
    path.write_text("[" * 100_000 + "\n")
    with pytest.raises(TaskFileError):
        load_task_file(path)


def test_task_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    count("bench.load_task_file")
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(b"\xff\xfe\n")
    with pytest.raises(TaskFileError):
        load_task_file(path)
