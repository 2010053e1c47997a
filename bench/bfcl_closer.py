"""The closer-tool rule (`agentcore.tool_fit.closer_tool`) replayed on BFCL's ground truth, with no model.

For each entry of the split, each offered tool is taken as if the model had chosen it: a wrong tool should make the
rule name the right one, and the right tool should make it name nothing (a right call held back otherwise).
Irrelevance entries have no right tool, so there every named tool is only counted.

    python -m bench.bfcl_closer --split dev
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

from bench.bfcl import load_bfcl, load_entries, split_entries

CATEGORIES = ("multiple", "live_multiple", "irrelevance", "live_irrelevance")


def replay(category: str, split: str) -> Counter[str]:
    from agentcore.tool_fit import closer_tool

    counts: Counter[str] = Counter()
    for entry in split_entries(load_entries(load_bfcl(), category), split):
        specs = entry.specs()
        task = " ".join(m["content"] for m in entry.messages if m["role"] == "user")
        right = {next(iter(call)) for call in entry.ground_truth or []}
        for spec in specs:
            found = closer_tool(task, spec, specs)
            if not right:
                counts["irrelevant: a tool named" if found else "irrelevant: none"] += 1
            elif spec.name in right:
                counts["right chosen: another named (held)" if found else "right chosen: none"] += 1
            elif found is None:
                counts["wrong chosen: none"] += 1
            else:
                counts["wrong chosen: RIGHT named" if found[0].name in right else "wrong chosen: wrong named"] += 1
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    args = parser.parse_args(argv)
    for category in CATEGORIES:
        print(category, dict(sorted(replay(category, args.split).items())), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
