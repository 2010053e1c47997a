"""What `agentcore.unstated` would leave out of BFCL's right answers: a replay on the ground truth, no model.

For every optional argument that a BFCL ground truth gives a value, the rule is asked whether the entry's question
asks for that value. `kept`: it does. `absent ok`: it does not, and the ground truth also accepts the argument left
out (the rule can only fix such a value, when the model guesses it wrong). `needed`: it does not, and the ground
truth needs the value (the rule loses it wherever the model wrote it right). By value kind, on one split:

    python -m bench.bfcl_unstated --split dev
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import Any

from agentcore.unstated import unstated
from bench.bfcl import CATEGORIES, Entry, is_irrelevance, json_schema, load_bfcl, load_entries, split_entries


def _kind(value: Any, schema: dict[str, Any]) -> str:
    return type(value).__name__ + (" (enum)" if "enum" in schema else "")


def _tally(entry: Entry, counts: Counter[tuple[str, str]], needed: list[str]) -> None:
    question = "\n".join(str(m.get("content", "")) for m in entry.messages if m.get("role") != "assistant")
    docs = {str(doc["name"]): json_schema(doc) for doc in entry.functions}
    for answer in entry.ground_truth or []:
        for name, arguments in answer.items():
            schema = docs.get(name, {})
            properties, required = schema.get("properties", {}), set(schema.get("required", []))
            for key, accepted in arguments.items():
                values = [v for v in accepted if v != ""]
                if key in required or key not in properties or not values:
                    continue
                lost = [v for v in values if key in unstated({key: v}, {"properties": properties}, question)]
                verdict = "kept" if not lost else ("absent ok" if "" in accepted else "needed")
                counts[_kind(values[0], properties[key]), verdict] += 1
                if verdict == "needed":
                    needed.append(f"{entry.id}: {key}={lost[0]!r}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    args = parser.parse_args(argv)
    bfcl = load_bfcl()
    counts: Counter[tuple[str, str]] = Counter()
    needed: list[str] = []
    for category in (c for c in CATEGORIES if not is_irrelevance(c)):
        for entry in split_entries(load_entries(bfcl, category), args.split):
            _tally(entry, counts, needed)
    print(f"| value kind ({args.split}) | kept | absent ok | needed |\n|---|---|---|---|")
    for kind in sorted({kind for kind, _ in counts}):
        print(f"| {kind} | {counts[kind, 'kept']} | {counts[kind, 'absent ok']} | {counts[kind, 'needed']} |")
    print("\nneeded and left out:", *needed, sep="\n- ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
