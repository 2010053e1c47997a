"""Routing accuracy of agentcore's ComplexityRouter on tests/data/routing.jsonl, beside effgen 1.3.0's.

Run from the repository root: `python -m bench.routing_bench`. effgen comes from `bench/peers/.venv-effgen`,
the folder `make bench-peers` fills with `pip install --target ... --no-deps effgen==1.3.0`; `--install` fills
just that part.

effgen runs in a subprocess, with that folder on its path. Only `effgen.core.complexity_analyzer` and
`effgen.core.router` are loaded (they need nothing beyond the standard library); effgen's package
`__init__`, which imports torch and friends, is bypassed by registering bare parent packages first.

How effgen's output maps to our plan labels. effgen decides only "one agent" or "sub-agents"; it has no
direct-answer plan (every task runs an agent with tools) and no notion of a configured team. So:
  - single agent -> "agent";
  - sub-agents (any strategy: parallel, sequential, hierarchical, hybrid) -> "decompose".
effgen therefore cannot score on "direct" or "team" labels. For a fair comparison the bench also reports the
two-class accuracy "single vs multi" (direct/agent count as single, decompose/team as multi) for both.
Two effgen rules are measured:
  - analyzer: the paper's rule, ComplexityAnalyzer overall >= 7.0;
  - router:   effgen 1.3.0's SubAgentRouter.should_use_sub_agents (explicit request, trigger phrases, or
              2+ counted requirements), which is what its Agent actually uses.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "routing.jsonl"
EFFGEN_VENV = ROOT / "bench" / "peers" / ".venv-effgen"
EFFGEN_VERSION = "1.3.0"
TRAPS = ("What is 24344 * 334?", "What is the capital of France?")

# Runs inside effgen's venv: reads cases as JSON on stdin, writes one result per case as JSON on stdout.
_EFFGEN_SCRIPT = r"""
import importlib.util, json, sys, types
spec = importlib.util.find_spec("effgen")
root = spec.submodule_search_locations[0]
for name, path in (("effgen", root), ("effgen.core", root + "/core")):
    module = types.ModuleType(name)
    module.__path__ = [path]
    sys.modules[name] = module
from effgen.core.complexity_analyzer import ComplexityAnalyzer
from effgen.core.router import SubAgentRouter
analyzer, router = ComplexityAnalyzer(), SubAgentRouter()
out = []
for case in json.load(sys.stdin):
    score = analyzer.analyze(case["task"])
    decision = router.should_use_sub_agents(case["task"])
    out.append({
        "overall": round(score.overall, 2),
        "requirements": score.breakdown["num_requirements"],
        "domains": score.breakdown["domains_identified"],
        "analyzer_multi": analyzer.should_use_sub_agents(score),
        "router_multi": decision.use_sub_agents,
        "strategy": decision.strategy.value,
    })
json.dump(out, sys.stdout)
"""


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def is_multi(plan: str) -> bool:
    return plan in ("decompose", "team")


def accuracy(labels: Sequence[str], predicted: Sequence[str]) -> tuple[float, float]:
    """Four-plan accuracy and two-class (single vs multi) accuracy."""
    n = len(labels)
    exact = sum(a == b for a, b in zip(labels, predicted, strict=True)) / n
    binary = sum(is_multi(a) == is_multi(b) for a, b in zip(labels, predicted, strict=True)) / n
    return exact, binary


def run_ours(cases: list[dict[str, Any]]) -> list[str]:
    from agentcore.policies.router import ComplexityRouter

    router = ComplexityRouter()
    return [
        router.route(c["task"], tool_names=c["tools"], team_available=c.get("team_available", False)).plan
        for c in cases
    ]


def effgen_installed() -> bool:
    return (EFFGEN_VENV / "effgen" / "core" / "complexity_analyzer.py").is_file()


def install_effgen() -> None:
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(EFFGEN_VENV)]
    subprocess.run([*pip, f"effgen=={EFFGEN_VERSION}"], check=True)


def run_effgen(cases: list[dict[str, Any]]) -> list[dict[str, Any]] | str:
    """effgen's results per case, or a sentence saying why they could not be had."""
    if not effgen_installed():
        return f"effgen missing: run `make bench-peers` or `python -m bench.routing_bench --install` ({EFFGEN_VENV})"
    payload = json.dumps([{"task": c["task"]} for c in cases])
    env = {**os.environ, "PYTHONPATH": str(EFFGEN_VENV), "EFFGEN_HOME": str(EFFGEN_VENV / "home")}
    proc = subprocess.run(
        [sys.executable, "-c", _EFFGEN_SCRIPT],
        input=payload,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if proc.returncode != 0:
        return "effgen subprocess failed: " + proc.stderr.strip().splitlines()[-1:][0]
    results: list[dict[str, Any]] = json.loads(proc.stdout)
    return results


def _row(name: str, labels: Sequence[str], predicted: Sequence[str]) -> str:
    exact, binary = accuracy(labels, predicted)
    return f"{name:<28} {exact:>7.1%} {binary:>15.1%}"


def report(cases: list[dict[str, Any]], ours: list[str], effgen: list[dict[str, Any]] | str) -> None:
    labels = [c["plan"] for c in cases]
    print(f"routing set: {len(cases)} tasks {dict(Counter(labels))}\n")
    print(f"{'router':<28} {'4 plans':>7} {'single vs multi':>15}")
    print(_row("agentcore ComplexityRouter", labels, ours))
    if isinstance(effgen, str):
        print(f"effgen {EFFGEN_VERSION}: not measured: {effgen}")
    else:
        for rule in ("analyzer", "router"):
            mapped = ["decompose" if r[f"{rule}_multi"] else "agent" for r in effgen]
            print(_row(f"effgen {EFFGEN_VERSION} {rule}", labels, mapped))
    print("\nper label, agentcore correct / total:")
    for plan in ("direct", "agent", "decompose", "team"):
        idx = [i for i, label in enumerate(labels) if label == plan]
        print(f"  {plan:<10} {sum(ours[i] == plan for i in idx)}/{len(idx)}")
    print("\ntraps:")
    for i, case in enumerate(cases):
        if case["task"] in TRAPS:
            theirs = (
                ""
                if isinstance(effgen, str)
                else (
                    f"  effgen: overall {effgen[i]['overall']}, {effgen[i]['requirements']} requirements,"
                    f" domains {effgen[i]['domains']}, router -> {effgen[i]['strategy']}"
                )
            )
            print(f"  {case['task']!r}: label {case['plan']}, ours {ours[i]}{theirs}")
    wrong = [(c["plan"], p, c["task"][:70]) for c, p in zip(cases, ours, strict=True) if c["plan"] != p]
    if wrong:
        print("\nagentcore misses:")
        for label, got, task in wrong:
            print(f"  {label} -> {got}: {task}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--install", action="store_true", help=f"install effgen into {EFFGEN_VENV} first")
    args = parser.parse_args(argv)
    if args.install and not effgen_installed():
        install_effgen()
    cases = load_cases()
    report(cases, run_ours(cases), run_effgen(cases))


if __name__ == "__main__":
    main()
