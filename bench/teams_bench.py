"""Team numbers (issue #14), printed, never asserted:

1. engine overhead per node on scripted work (a chain of async no-op function nodes, and a fan-out of them);
2. tokens and wall time per task for the three example teams on the real default model;
3. joins on the real model: five solvers (different prompts) answer arithmetic questions whose answers vary;
   single agent, majority vote, Optimal Weight and ISP side by side from the same answers, with accuracy and
   tokens. OW and ISP learn their statistics online, question by question, without labels;
4. the meta-architect: how often the default model's drafts validate, at the first try and after repair.

    .venv/bin/python -m bench.teams_bench [--questions 30] [--skip-real]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from agentcore.teams import Registry, Team
from agentcore.teams.joins import JoinStats, aggregate, normalize

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "teams"
CMD = ".venv/bin/python -m bench.teams_bench"


async def _noop(**values: Any) -> int:
    return 1


def _chain(n: int) -> str:
    nodes = "\n".join(f"  n{i}: {{kind: function, function: noop, writes: [x]}}" for i in range(n))
    edges = "\n".join(f"    - {{from: n{i}, to: n{i + 1}}}" for i in range(n - 1))
    return f"team: chain\nstate: {{task: str, x: {{type: int, default: 0}}}}\nnodes:\n{nodes}\n" + (
        f"topology:\n  entry: n0\n  exit: n{n - 1}\n  edges:\n{edges}\n"
    )


def _fan(n: int) -> str:
    nodes = "\n".join(f"  w{i}: {{kind: function, function: noop, writes: [xs]}}" for i in range(n))
    sources = ", ".join(f"w{i}" for i in range(n))
    return (
        "team: fan\nstate: {task: str, xs: {type: 'list[int]', reducer: append}, x: {type: int, default: 0}}\n"
        f"nodes:\n{nodes}\n  end: {{kind: function, function: noop, writes: [x]}}\n"
        f"topology:\n  entry: [{sources}]\n  exit: end\n  edges:\n    - {{from: [{sources}], to: end}}\n"
    )


async def overhead(runs: int = 20) -> None:
    registry = Registry(functions={"noop": _noop})
    for label, text, nodes in (("chain of 50", _chain(50), 50), ("fan-out of 50 + join", _fan(50), 51)):
        team = Team.from_text(text, registry=registry)
        await team.run("warm-up")
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            result = await team.run("go")
            times.append((time.perf_counter() - started) / nodes * 1000)
            assert result.ok, result.error
        print(f"engine overhead per node, {label}: median {statistics.median(times):.3f} ms (min {min(times):.3f})")
    print(f"  reproduce: {CMD} --skip-real")


async def examples(model: Any) -> None:
    tasks = {
        "vote.yaml": "What is 12 + 30? Answer with the number only.",
        "audit_loop.yaml": "Write one sentence that explains what a prime number is.",
        "plan_work.yaml": "Name a fruit and a vegetable, each with its colour.",
    }
    print("\nexample teams on the real default model (one task each):")
    for file, task in tasks.items():
        team = Team.load(EXAMPLES / file, registry=Registry(models={"default": model}))
        result = await team.run(task)
        u = result.usage
        print(
            f"  {file:<16} {result.status:<9} {result.seconds:6.1f}s  {len(result.ledger)} node runs, {u.calls} model"
            f" calls, {u.prompt_tokens} prompt + {u.generated_tokens} generated tokens -> {str(result.output)[:60]!r}"
        )


SOLVERS = {
    "direct": "Answer with the number only.",
    "stepwise": "Compute step by step in your head, then answer with the final number only.",
    "careful": "Be careful with multiplication before addition. Answer with the final number only.",
    "teacher": "You are a maths teacher checking a pupil's sum. Give the correct result as a number only.",
    "terse": "Reply with digits only.",
}


def _solvers_team() -> str:
    nodes = "".join(
        f"  {name}:\n    instructions: {text!r}\n    prompt: '{{question}}'\n    reads: [question]\n"
        f"    writes: [answers]\n    max_tokens: 12\n"
        for name, text in SOLVERS.items()
    )
    names = ", ".join(SOLVERS)
    return (
        "team: solvers\ninput: question\noutput: answer\n"
        "state:\n  question: str\n  answers: {type: 'list[str]', reducer: append}\n  answer: str\n"
        f"nodes:\n{nodes}  vote: {{kind: join, method: majority, reads: [answers], writes: [answer]}}\n"
        f"topology:\n  entry: [{names}]\n  exit: vote\n  edges:\n    - {{from: [{names}], to: vote}}\n"
    )


def _questions(count: int, seed: int = 14) -> list[tuple[str, str]]:
    """Alternately 'a * b' (Qwen 0.5B mostly right) and 'a + b + c' (mostly off by a little): a family where
    single answers vary. ('a * b + c' was tried first: 0 of 16 right for every method, nothing to join.)"""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2:
            a, b, c = rng.randint(12, 89), rng.randint(12, 89), rng.randint(12, 89)
            out.append((f"What is {a} + {b} + {c}?", str(a + b + c)))
        else:
            a, b = rng.randint(12, 39), rng.randint(3, 9)
            out.append((f"What is {a} * {b}?", str(a * b)))
    return out


async def joins(model: Any, count: int) -> None:
    team = Team.from_text(_solvers_team(), registry=Registry(models={"default": model}))
    stats = {"optimal_weight": JoinStats(), "isp": JoinStats()}
    correct = dict.fromkeys(["single (direct)", "majority", "optimal_weight", "isp"], 0)
    tokens_all, tokens_single, used = 0, 0, {"optimal_weight": 0, "isp": 0}
    started = time.perf_counter()
    for question, truth in _questions(count):
        result = await team.run(question)
        answers, voters = result.state["answers"], result.sources["answers"]
        keyed = dict(zip(voters, answers, strict=True))
        correct["single (direct)"] += normalize(keyed["direct"], "number") == truth
        correct["majority"] += normalize(aggregate("majority", answers, voters, how="number").answer, "number") == truth
        for method in ("optimal_weight", "isp"):
            joined = aggregate(method, answers, voters, stats=stats[method], how="number")
            used[method] += joined.method == method
            correct[method] += normalize(joined.answer, "number") == truth
        tokens_all += _tokens(result.usage)
        tokens_single += _tokens(next(r.usage for r in result.ledger if r.node == "direct"))
    seconds = time.perf_counter() - started
    print(f"\njoins on the real default model: {count} questions 'a * b' / 'a + b + c', 5 solvers, different prompts")
    for name, hits in correct.items():
        tokens = tokens_single if name.startswith("single") else tokens_all
        note = f" (own statistics used on {used[name]} of {count}; majority before)" if name in used else ""
        print(f"  {name:<16} accuracy {hits / count:6.1%}  tokens/question {tokens / count:7.0f}{note}")
    print(f"  wall {seconds:.0f}s; reproduce: {CMD} --parts joins --questions {count}")


DESIGN_TASKS = [
    "Answer a maths question with three solvers and a majority vote.",
    "Write a short product description, then have a reviewer check it and ask for a revision at most twice.",
    "Plan a trip: one agent lists sights, another lists restaurants, an editor combines both lists.",
    "Summarise a text, then translate the summary into French.",
]


async def design(model: Any, count: int) -> None:
    from agentcore.teams.design import design_team

    tasks = DESIGN_TASKS[:count]
    first = repaired = tokens = 0
    started = time.perf_counter()
    for task in tasks:
        draft = await design_team(task, model, repairs=2)
        first += draft.ok and draft.attempts == 1
        repaired += draft.ok
        tokens += _tokens(draft.usage)
        print(f"  {'valid' if draft.ok else 'invalid':<7} after {draft.attempts} draft(s): {task[:60]}")
        for note in draft.notes:
            print(f"      {note[:150]}")
        if draft.ok:  # what was drafted, to judge whether it fits the task (a copy of the example would not)
            print("      " + _outline(draft.text))
    n = len(tasks)
    seconds = time.perf_counter() - started
    print(f"meta-architect on the real default model: {first}/{n} drafts valid at the first try, {repaired}/{n}"
          f" after up to 2 repairs; {tokens / n:.0f} tokens per task; {seconds:.0f}s")  # fmt: skip
    print(f"  reproduce: {CMD} --parts design --design {count}")


def _outline(text: str) -> str:
    import yaml

    data = yaml.safe_load(text)
    nodes = ", ".join(
        f"{name} ({body.get('kind', 'agent')}: {body.get('role', '')})" for name, body in data["nodes"].items()
    )
    edges = "; ".join(
        f"{e['from']}->{e['to']}" + (" [loop]" if e.get("max_loops") else "") for e in data["topology"]["edges"]
    )
    return f"nodes: {nodes} | entry {data['topology']['entry']} | edges: {edges}"


def _tokens(usage: Any) -> int:
    return int(usage.prompt_tokens + usage.generated_tokens)


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.teams_bench")
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--design", type=int, default=len(DESIGN_TASKS), help="tasks for the meta-architect")
    parser.add_argument("--parts", default="overhead,examples,joins,design", help="comma-separated parts to run")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    if "overhead" in parts:
        await overhead()
    if args.skip_real:
        return
    from agentcore.models.base import set_real_models_allowed
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, model_path

    set_real_models_allowed(True)
    model = LlamaCppModel(str(model_path(DEFAULT_MODEL)), n_ctx=2048, n_threads=args.threads, seed=0)
    if "examples" in parts:
        await examples(model)
    if "joins" in parts:
        await joins(model, args.questions)
    if "design" in parts:
        print("\nmeta-architect drafts:")
        await design(model, args.design)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
