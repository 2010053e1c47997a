"""The advisor's review-revise mode on one model (issue #17): the cached share of the main model's turns.

When the advisor runs on the same loaded model as the agent, its review evaluates a prompt of its own between
the main model's answer and the revision, and with one KV state per model the revision then evaluates its whole
prompt again. With several KV states it resumes from the main run's own prefix. Same tasks, same code, with
`kv_cache_bytes=0` (before) and the default budget (after). The main model's turns and the advisor's are told
apart by two thin wrappers around the one model.

The reviews use a harsh bench template (the answer must explain each step) so that the 0.5B reviewer asks for
some revisions: with the advisor's own templates it approved every answer here, and an approved answer ends
the run with no further main turn to measure. A revision is the main model's turn right after a review that
said not ok; the main model's turn right after an approving review is the next task's first turn. With an
advisor on a model of its own, the main model's state is never evicted.

    .venv/bin/python -m bench.advisor_kv [--threads 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agentcore.messages import ModelRequest, ModelResponse, Usage

CMD = ".venv/bin/python -m bench.advisor_kv"
TASKS = (
    "A notebook costs 4 dollars and a pen 3 dollars. What do 6 notebooks and 5 pens cost together?",
    "A train covers 240 km in 3 hours. At the same speed, how far does it go in 5 hours?",
    "What is 15% of 360, plus 27?",
    "A box holds 12 eggs. How many boxes do 150 eggs fill completely, and how many eggs are left over?",
    "A room is 4.5 m long and 3.2 m wide. What is its area in square metres?",
    "Tickets cost 18 euros for adults and 11 euros for children. What do 2 adults and 3 children pay?",
)
STRICT_REVIEW = (
    "You are a harsh reviewer of an AI assistant's answers. Answers are usually too short: they must explain each "
    "step of the calculation. If the proposed answer does not explain each step, set ok to false and say what is "
    "missing in issue."
)


@dataclass
class Seat:
    """One seat on the shared model (main or advisor): its calls' usage, also in `log` in call order."""

    model: Any
    label: str
    log: list[tuple[str, Usage, bool]]  # (seat, usage, whether a review said not ok)
    calls: list[Usage] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.model.name)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response: ModelResponse = await self.model.complete(request)
        self.calls.append(response.usage)
        self.log.append((self.label, response.usage, self.label == "advisor" and not_ok(response.content)))
        return response

    def count_tokens(self, text: str) -> int:
        return int(self.model.count_tokens(text))


async def run(budget: int, threads: int) -> tuple[Seat, Seat, int]:
    """The tasks with the advisor reviewing on the same model; returns both seats and the number of revisions."""
    from agentcore import Agent
    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.models.registry import DEFAULT_MODEL, pull
    from agentcore.policies.advisor import TEMPLATES, Advisor, AdvisorTemplate
    from agentcore.tools.builtin import builtin_toolset

    model = LlamaCppModel(pull(DEFAULT_MODEL), n_ctx=4096, n_threads=threads, kv_cache_bytes=budget)
    log: list[tuple[str, Usage, bool]] = []
    main, seat = Seat(model, "main", log), Seat(model, "advisor", log)
    strict = {"strict": AdvisorTemplate(TEMPLATES["math"].advice, STRICT_REVIEW)}
    advisor = Advisor(seat, mode="review_revise", domain="strict", templates=strict)  # type: ignore[arg-type]
    revisions = 0
    for task in TASKS:
        agent: Any = Agent(main, tools=builtin_toolset(["calculator"]), policies=[advisor], max_steps=6)
        result = await agent.run(task)
        revisions += sum(1 for e in result.trace if e["kind"] == "advisor" and e.get("ok") is False)
    return main, seat, revisions


def not_ok(content: str | None) -> bool:
    try:
        data = json.loads(content or "")
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("ok") is False


def share(calls: Sequence[Usage]) -> str:
    prompt, cached = sum(u.prompt_tokens for u in calls), sum(u.cached_tokens for u in calls)
    return f"{cached / max(prompt, 1):.1%} cached ({cached}/{prompt} prompt tokens, {prompt - cached} evaluated)"


async def main_async(threads: int) -> None:
    from agentcore.models.llamacpp import DEFAULT_KV_CACHE_BYTES

    print(f"[advisor] review-revise on the main model itself ({len(TASKS)} arithmetic tasks, calculator tool):")
    for label, budget in (("one KV state (before)", 0), ("several KV states", DEFAULT_KV_CACHE_BYTES)):
        main, seat, revisions = await run(budget, threads)
        print(f"  {label}: {revisions} revisions")
        print(f"    main model's turns ({len(main.calls)}): {share(main.calls)}")
        pairs = list(zip(main.log, main.log[1:], strict=False))
        revised = [u for (before, _, bad), (who, u, _) in pairs if (before, who, bad) == ("advisor", "main", True)]
        fresh = [u for (before, _, bad), (who, u, _) in pairs if (before, who, bad) == ("advisor", "main", False)]
        print(f"    of which revisions, right after a review that said not ok ({len(revised)}): {share(revised)}")
        print(f"    of which next tasks' first turns, right after an approving review ({len(fresh)}): {share(fresh)}")
        print(f"    advisor's reviews ({len(seat.calls)}): {share(seat.calls)}")
    print(f"    reproduce: {CMD} --threads {threads}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.threads))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
