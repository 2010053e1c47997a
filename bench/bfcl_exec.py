"""BFCL's retired executable categories (exec_simple, exec_multiple), scored by the AST checker.

bfcl-eval still ships their entries in `data/unused_datasets`, with a ground truth that is one Python call to run
(`calc_binomial_probability(n=20, k=5, p=1/6)`) rather than the AST checker's possible answers. No earlier stop read
them, so they are held-out data of the same shape as simple_python and multiple.

`possible_answer` turns the call into the checker's form: each argument the call gives must match (BFCL executed
the call and compared results; an argument equal in value passes both); each parameter it leaves out may be left
out, or given its documented default. Arguments are literals, or arithmetic on literals (`1/6`), evaluated here;
an integer where the doc says float is made a float (execution does not tell them apart; the checker does).

One entry's ground truth does not fit its own docs (exec_multiple_45 gives `book_room` an undocumented `price` and
a string for a dict): `load_exec` leaves such entries out, says so on stderr, and splits what is left.
"""

from __future__ import annotations

import ast
import json
import operator
import sys
from pathlib import Path
from typing import Any

EXEC_CATEGORIES = ("exec_simple", "exec_multiple")
HINT = " Note that the provided function is in Python 3 syntax."  # what load_dataset_entry adds for Python
_ARITHMETIC: dict[type[ast.AST], Any] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos,
}  # fmt: skip


def is_exec(category: str) -> bool:
    return category in EXEC_CATEGORIES


def literal(node: ast.AST) -> Any:
    """The value of a literal argument: constants, lists, tuples (as lists), dicts, and arithmetic on numbers."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [literal(item) for item in node.elts]
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {literal(k): literal(v) for k, v in zip(node.keys, node.values, strict=True) if k is not None}
    if isinstance(node, ast.UnaryOp) and type(node.op) in _ARITHMETIC:
        return _ARITHMETIC[type(node.op)](literal(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        return _ARITHMETIC[type(node.op)](literal(node.left), literal(node.right))
    raise ValueError(f"not a literal argument: {ast.unparse(node)}")


def parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """(function name, keyword arguments) of one ground-truth call; positional arguments are refused."""
    node = ast.parse(text.strip(), mode="eval").body
    if not isinstance(node, ast.Call) or node.args:
        raise ValueError(f"not a call with keyword arguments only: {text}")
    name = ast.unparse(node.func)
    return name, {str(k.arg): literal(k.value) for k in node.keywords}


def _typed(value: Any, schema: dict[str, Any]) -> Any:
    """`value` with integers made floats where the doc's type (or its array's item type) is float."""
    kind = schema.get("type")
    if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind in ("array", "list", "tuple") and isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_typed(item, schema["items"]) for item in value]
    return value


def possible_answer(text: str, functions: list[dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    """The AST checker's possible answer for one ground-truth call, against the entry's function docs."""
    name, given = parse_call(text)
    docs = [doc for doc in functions if doc["name"] == name]
    if not docs:
        raise ValueError(f"ground truth calls {name}, which the entry does not offer")
    properties: dict[str, Any] = docs[0]["parameters"].get("properties", {})
    unknown = set(given) - set(properties)
    if unknown:
        raise ValueError(f"ground truth gives {name} undocumented arguments: {sorted(unknown)}")
    answer: dict[str, list[Any]] = {}
    for key, schema in properties.items():
        if key in given:
            answer[key] = [_typed(given[key], schema)]
        else:
            answer[key] = ["", schema["default"]] if "default" in schema else [""]
    return {name: answer}


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_exec(data_root: Path, category: str) -> list[tuple[dict[str, Any], list[Any]]]:
    """(entry, possible answers) of a retired executable category, the docs hinted as load_dataset_entry does."""
    folder = data_root / "unused_datasets"
    entries = _lines(folder / "question" / f"BFCL_v4_{category}.json")
    truth_file = folder / "possible_answer" / f"BFCL_v4_{category}.json"
    truths = {item["id"]: item["ground_truth"] for item in _lines(truth_file)}
    loaded = []
    for entry in entries:
        for doc in entry["function"]:
            doc["description"] = doc.get("description", "") + HINT
        try:
            answers = [possible_answer(call, entry["function"]) for call in truths[entry["id"]]]
        except ValueError as exc:
            print(f"bfcl: {entry['id']} left out: {exc}", file=sys.stderr)
            continue
        loaded.append((entry, answers))
    return loaded
