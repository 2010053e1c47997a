"""The forty-fifth and forty-sixth stops' call rewrites and holds replayed on BFCL's ground truth, with no model.

Each right call of the split (its first possible value per argument, "" taken as left out) goes through one rule
as if the model had written it; a rule that changes or holds a right call would lose it. The claims in
docs/architecture.md (forty-fifth stop) are these counts:

    python -m bench.bfcl_rewrites --split dev

- `ungiven.held` on the call (a made-up identifier alone, among the older weights): right calls held;
- `relative_dates.on_asked_day`, `times.as_task_time`, `roles.in_named_places`, `places.real_places`,
  `doc_codes.with_named_codes`: right calls changed;
- `named_flags.asked_flags` with every boolean of the tool written `false`: flags set, and of those the ones for
  which `true` is not a right value;
- the forty-sixth stop's: `times.in_documented_time` (a time argument's date), `url_templates.from_templates`
  and `without_sentence_end`: right calls changed; `ungiven.undated_optional` and `doc_codes.named_again`: right
  calls with an argument left out that the ground truth needs.

The held and changed counts include the older rules of each function (a made-up date, place or pair of numbers in
`ungiven`; the role swaps of `roles`), so they are compared with the same command on an earlier revision.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from bench.bfcl import Entry, json_schema, load_bfcl, load_entries, split_entries

CATEGORIES = ("simple_python", "multiple", "live_simple", "live_multiple")
Rewrite = Callable[[dict[str, Any], dict[str, Any], str, str], Any]


def _rewrites() -> dict[str, Rewrite]:
    from agentcore.doc_codes import coded_arguments, with_named_codes
    from agentcore.places import real_places
    from agentcore.relative_dates import on_asked_day
    from agentcore.roles import in_named_places
    from agentcore.times import as_task_time, in_documented_time
    from agentcore.ungiven import held
    from agentcore.url_templates import from_templates, without_sentence_end

    return {
        "ungiven.held (held)": lambda a, p, d, t: a if held(a, p, d, t) else None,
        "relative_dates.on_asked_day": lambda a, p, d, t: _changed(a, on_asked_day(a, p, t)),
        "times.as_task_time": lambda a, p, d, t: _changed(a, as_task_time(a, p, t)),
        "roles.in_named_places": lambda a, p, d, t: _changed(a, in_named_places(a, p, t)),
        "places.real_places": lambda a, p, d, t: _changed(a, real_places(a, p)),
        "doc_codes.with_named_codes": lambda a, p, d, t: _changed(a, with_named_codes(a, coded_arguments(p), t)),
        "times.in_documented_time": lambda a, p, d, t: _changed(a, in_documented_time(a, p, t)),
        "url_templates.from_templates": lambda a, p, d, t: _changed(a, from_templates(a, p, t)),
        "url_templates.without_sentence_end": lambda a, p, d, t: _changed(a, without_sentence_end(a, p, t)),
    }


def _left_out(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> dict[str, list[str]]:
    """The forty-sixth stop's rules that leave arguments out, each with the names it would leave out."""
    from agentcore.doc_codes import named_again
    from agentcore.ungiven import undated_optional

    return {
        "ungiven.undated_optional": undated_optional(arguments, parameters, given),
        "doc_codes.named_again": named_again(arguments, parameters),
    }


def _changed(before: dict[str, Any], after: dict[str, Any]) -> Any:
    return after if after != before else None


def right_calls(entry: Entry) -> list[tuple[dict[str, Any], dict[str, Any], str, dict[str, list[Any]]]]:
    """(arguments, parameters, description, possible values) of each right call; the arguments take the first
    possible value of each."""
    docs = {doc["name"]: doc for doc in entry.functions}
    found = []
    for call in entry.ground_truth or []:
        for name, possible in call.items():
            first = {key: values[0] if values else "" for key, values in possible.items()}
            arguments = {key: value for key, value in first.items() if value != ""}
            found.append((arguments, json_schema(docs[name]), str(docs[name].get("description", "")), possible))
    return found


def replay(entries: Sequence[Entry]) -> Counter[str]:
    from agentcore.named_flags import asked_flags

    rewrites, counts = _rewrites(), Counter[str]()
    for entry in entries:
        conversation = "\n".join(str(m.get("content", "")) for m in entry.messages)
        task = next((str(m["content"]) for m in reversed(entry.messages) if m.get("role") == "user"), "")
        for arguments, parameters, description, possible in right_calls(entry):
            counts["right calls"] += 1
            for name, rewrite in rewrites.items():
                given = task if name.startswith("roles") else conversation
                counts[name] += rewrite(arguments, parameters, description, given) is not None
            for name, dropped in _left_out(arguments, parameters, conversation).items():
                counts[f"{name}: needed values left out"] += sum("" not in possible.get(k, [""]) for k in dropped)
            flags = [k for k, s in parameters.get("properties", {}).items() if s.get("type") == "boolean"]
            set_true = asked_flags(dict.fromkeys(flags, False), parameters, task)
            counts["named_flags: booleans written false"] += len(flags)
            counts["named_flags: set true"] += sum(set_true[k] is True for k in flags)
            counts["named_flags: set true where true is not right"] += sum(
                set_true[k] is True and True not in possible.get(k, []) for k in flags
            )
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    args = parser.parse_args(argv)
    bfcl = load_bfcl()
    entries = [e for c in CATEGORIES for e in split_entries(load_entries(bfcl, c), args.split)]
    for name, count in replay(entries).items():
        print(f"{name}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
