"""What `agentcore.enum_filled` would write into BFCL's right answers: a replay on the ground truth, no model.

For every optional enum argument (or list of enum values) of a ground truth's function, the rule is asked what it
would fill if the model left the argument out. `right`: the filled value is one the ground truth accepts and
leaving it out is not (the rule fixes such a call). `wrong`: leaving it out is right and the filled value is not
(the rule breaks such a call). `either`: both are accepted. `neither`: neither is (no change in the score).

    python -m bench.bfcl_filled --split dev
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import Any

from agentcore.enum_filled import filled
from bench.bfcl import CATEGORIES, Entry, is_irrelevance, json_schema, load_bfcl, load_entries, split_entries


def _accepts(accepted: list[Any], value: Any) -> bool:
    if isinstance(value, list):
        return any(isinstance(a, list) and sorted(map(str, a)) == sorted(map(str, value)) for a in accepted)
    return value in accepted


def _tally(entry: Entry, counts: Counter[str], lines: list[str]) -> None:
    question = "\n".join(str(m.get("content", "")) for m in entry.messages if m.get("role") == "user")
    docs = {str(doc["name"]): json_schema(doc) for doc in entry.functions}
    for answer in entry.ground_truth or []:
        for name, arguments in answer.items():
            schema = docs.get(name, {})
            for key, value in filled({}, schema, question).items():
                accepted = arguments.get(key, [""])
                right, omitted = _accepts(accepted, value), "" in accepted
                verdict = "either" if right and omitted else "right" if right else "wrong" if omitted else "neither"
                counts[verdict] += 1
                if verdict in ("wrong", "neither"):
                    lines.append(f"{verdict}: {entry.id}: {key}={value!r}, accepted {accepted!r}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    args = parser.parse_args(argv)
    bfcl = load_bfcl()
    counts: Counter[str] = Counter()
    lines: list[str] = []
    for category in (c for c in CATEGORIES if not is_irrelevance(c)):
        for entry in split_entries(load_entries(bfcl, category), args.split):
            _tally(entry, counts, lines)
    print("| split | right | wrong | either | neither |\n|---|---|---|---|---|")
    print(f"| {args.split} | {counts['right']} | {counts['wrong']} | {counts['either']} | {counts['neither']} |")
    print("", *lines, sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
