"""Tool-Guard's validation of one chosen call: provenance, then alignment, then suspicion.

- `provenance` (ours, deterministic, no model call): identifying argument values (IBANs, accounts, e-mail
  addresses, URLs, recipients, phones) must occur in the request or in an earlier validated result
  (`agentcore.policies.provenance`). Unseen amounts do not fail it: amounts are often computed ("add 19.5%
  VAT"), so they are flagged and named to the suspicion check instead (`blocking_kinds` changes that).
- `alignment`: does the call serve the request? Unparseable output counts as aligned (as in the original).
- `suspicion`, only when aligned: are argument values unseen or contradicting the request? Unparseable output
  counts as suspicious (fail safe). A call without arguments passes without a model call.
Both LLM checks are decoded under a grammar from a JSON Schema, so with llama.cpp "unparseable" cannot happen;
the defaults remain for HTTP backends that ignore schemas. Checks stop at the first failure.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall
from agentcore.policies import toolguard_prompts as tp
from agentcore.policies.provenance import BLOCKING_KINDS, KINDS, Finding, check_provenance

CHECKS = ("provenance", "alignment", "suspicion")
CHECK_MAX_TOKENS = 32

Ask = Callable[[ModelRequest], Awaitable[ModelResponse]]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One check's outcome. `defaulted`: taken from the fail-safe default (the output was unparseable)."""

    check: str
    passed: bool
    detail: str
    defaulted: bool = False


@dataclass(frozen=True, slots=True)
class Checks:
    """Which checks run, in the fixed order provenance -> alignment -> suspicion, and how."""

    names: tuple[str, ...] = CHECKS
    provenance_kinds: tuple[str, ...] = KINDS
    blocking_kinds: tuple[str, ...] = BLOCKING_KINDS
    max_tokens: int = CHECK_MAX_TOKENS

    async def validate(self, call: ToolCall, task: str, steps: Sequence[tp.GuardStep], ask: Ask) -> list[Verdict]:
        """The verdicts of the checks that ran; the last one failed unless all passed."""
        verdicts: list[Verdict] = []
        flagged: list[Finding] = []
        for name in CHECKS:
            if name not in self.names:
                continue
            if name == "provenance":
                verdict, flagged = self.provenance(call, task, steps)
            elif name == "alignment":
                verdict = await self.alignment(call, task, steps, ask)
            else:
                verdict = await self.suspicion(call, task, steps, ask, flagged)
            verdicts.append(verdict)
            if not verdict.passed:
                break
        return verdicts

    def provenance(self, call: ToolCall, task: str, steps: Sequence[tp.GuardStep]) -> tuple[Verdict, list[Finding]]:
        """The verdict, and the unseen values of non-blocking kinds (amounts), which only inform suspicion."""
        sources = [task, *(step.source or step.result for step in steps)]
        findings = check_provenance(call.arguments, sources, self.provenance_kinds)
        blocking = [f for f in findings if f.kind in self.blocking_kinds]
        flagged = [f for f in findings if f.kind not in self.blocking_kinds]
        if blocking:
            unseen = "; ".join(f.describe() for f in blocking)
            return Verdict(
                "provenance", False, f"values found in neither the request nor earlier results: {unseen}"
            ), []
        detail = "every identifying value occurs in the request or earlier results"
        if flagged:
            detail += "; flagged for the suspicion check: " + "; ".join(f.describe() for f in flagged)
        return Verdict("provenance", True, detail), flagged

    async def alignment(self, call: ToolCall, task: str, steps: Sequence[tp.GuardStep], ask: Ask) -> Verdict:
        messages = tp.alignment_messages(task, call, steps)
        aligned = await self._ask(ask, messages, tp.ALIGNMENT_SCHEMA, "aligned")
        if aligned is None:
            return Verdict("alignment", True, "unparseable verdict: counted as aligned", defaulted=True)
        return Verdict("alignment", aligned, "serves the request" if aligned else "does not serve the request")

    async def suspicion(
        self, call: ToolCall, task: str, steps: Sequence[tp.GuardStep], ask: Ask, flagged: Sequence[Finding] = ()
    ) -> Verdict:
        if not call.arguments:
            # The question is about argument values; without any, the answer is no (Qwen 0.5B says yes).
            return Verdict("suspicion", True, "no argument values to judge")
        messages = tp.suspicion_messages(task, call, steps, [f.describe() for f in flagged])
        suspicious = await self._ask(ask, messages, tp.SUSPICION_SCHEMA, "suspicious")
        if suspicious is None:
            return Verdict("suspicion", False, "unparseable verdict: counted as suspicious", defaulted=True)
        detail = "argument values unseen or contradicting the request" if suspicious else "argument values fit"
        return Verdict("suspicion", not suspicious, detail)

    async def _ask(self, ask: Ask, messages: tuple[Message, ...], schema: dict[str, Any], key: str) -> bool | None:
        request = ModelRequest(
            messages=messages, tools=(), output_schema=schema, allow_final=True, max_tokens=self.max_tokens
        )
        try:
            response = await ask(request)
        except ModelError:  # a broken verdict is an unparseable verdict: the caller applies the default
            return None
        return tp.parse_verdict(response.content, key)


__all__ = ["CHECKS", "Checks", "Verdict"]
