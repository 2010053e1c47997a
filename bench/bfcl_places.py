"""agentcore on the BFCL entries whose right call fills a place documented as "City, State": the two-part place
rule of the grammar and the state check of agentcore.places, on or off, entry by entry.

Entries: every entry of simple_python, multiple, live_simple and live_multiple on the split whose functions have
a free string argument documented as a city and its state or country (agentcore.formats.two_part_form) that the
ground truth fills; `--n` of them, evenly spaced. On `test`, only entries past the first 156 of each category's
split: the fresh test slices of earlier stops read those.

    python -m bench.bfcl_places --split test --n 30          # the rules on
    python -m bench.bfcl_places --split test --n 30 --off    # the rules off (the revision before them)
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from typing import Any

from bench.bfcl import Entry, load_bfcl, load_entries, score

CATEGORIES = ("simple_python", "multiple", "live_simple", "live_multiple")
SEEN_TEST = 156  # test entries per category read by the fresh test slices (bench/results/bfcl_fresh_test*)


def _fills_a_place(entry: Entry) -> bool:
    from agentcore.formats import two_part_form

    for doc in entry.functions:
        for key, schema in doc["parameters"].get("properties", {}).items():
            if schema.get("type") != "string" or "enum" in schema or not two_part_form(schema):
                continue
            for answer in entry.ground_truth or []:
                if any(value != "" for value in (answer.get(doc["name"]) or {}).get(key, [])):
                    return True
    return False


def chosen(bfcl: Any, split: str, n: int) -> list[Entry]:
    found = []
    for category in CATEGORIES:
        entries = load_entries(bfcl, category)
        entries = entries[0::2] if split == "dev" else entries[1::2][SEEN_TEST:]
        found += [entry for entry in entries if _fills_a_place(entry)]
    return found[:: max(1, len(found) // n)][:n]


def _rules_off() -> None:
    import agentcore.grammar
    import agentcore.loop_checks

    agentcore.grammar.two_part_form = lambda schema: None  # type: ignore[assignment]
    agentcore.loop_checks.real_places = lambda arguments, parameters: arguments  # type: ignore[assignment]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--off", action="store_true", help="without the two-part grammar rule and the state check")
    args = parser.parse_args(argv)
    if args.off:
        _rules_off()
    from agentcore.models.llamacpp import LlamaCppModel
    from bench.bfcl_systems import agentcore_answer
    from bench.harness import resolve_model

    bfcl = load_bfcl()
    model = LlamaCppModel(resolve_model(None), n_ctx=4096, n_threads=2, seed=0)
    entries, right = chosen(bfcl, args.split, args.n), 0
    for entry in entries:
        reply = asyncio.run(agentcore_answer(model, entry.specs(), entry.messages, 256))
        ok, why = score(bfcl, entry, reply.calls)
        right += ok
        print("ok   " if ok else "WRONG", entry.id, json.dumps(reply.calls)[:200], (why or "")[:100], flush=True)
    print(f"agentcore{' (rules off)' if args.off else ''}: {right}/{len(entries)} ({args.split})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
