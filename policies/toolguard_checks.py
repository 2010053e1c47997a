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

import re
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest, ModelResponse, ToolCall, ToolSpec
from agentcore.policies import toolguard_prompts as tp
from agentcore.policies.provenance import BLOCKING_KINDS, KINDS, Finding, check_provenance, sensitive_values

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
    suspicion_after_provenance: bool = False

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
            elif "provenance" in self.names and not flagged and not self.suspicion_after_provenance:
                # Provenance answered the suspicion question for every identifying value, deterministically.
                # Measured: the 0.5B validator called the bill's own IBAN "suspicious" and blocked a clean run.
                verdict = Verdict("suspicion", True, "provenance verified every identifying value; nothing flagged")
            else:
                verdict = await self.suspicion(call, task, steps, ask, flagged)
            verdicts.append(verdict)
            if not verdict.passed:
                break
        return verdicts

    def provenance(self, call: ToolCall, task: str, steps: Sequence[tp.GuardStep]) -> tuple[Verdict, list[Finding]]:
        """The verdict, and the unseen values of non-blocking kinds (amounts), which only inform suspicion."""
        # Text in a result that gives the model orders was written by an attacker: what it names is not "seen".
        sources = [task, *(tp.without_injections(step.source or step.result) for step in steps)]
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
        if requested(call, task, _results(steps)):
            return Verdict("alignment", True, "the request names this action; its values are in the request")
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
        if requested(call, task, _results(steps)):
            return Verdict("suspicion", True, "the request names this action; its values are in the request")
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


def declared_only(call: ToolCall, spec: ToolSpec) -> ToolCall:
    """The call without arguments its tool does not declare.

    A grammar that lets a tool without parameters take any object gives a poisoned planner room to smuggle
    values (`get_balance(iban="XX00...")`); the tool ignores them, but they would fail provenance and block
    a harmless call. Schemas without `properties`, or with `additionalProperties`, are left alone."""
    props = spec.parameters.get("properties")
    if not isinstance(props, dict) or spec.parameters.get("additionalProperties") not in (None, False):
        return call
    kept = {key: value for key, value in call.arguments.items() if key in props}
    return call if len(kept) == len(call.arguments) else ToolCall(call.name, kept)


# Orders addressed to the model, not documentation of the tool: authority claims, "before any other tool",
# secrecy, overriding earlier instructions, and the tags injections wrap themselves in.
AUTHORITY_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\byou (?:must|have to|are required to|need to first)\b",
        r"\bbefore (?:you )?(?:(?:call|us|answer|do|run|execut)\w* )?(?:any|another|other|the other)\b",
        r"\bignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier|other) (?:instructions|rules|orders)",
        r"\b(?:do not|don't|never) (?:tell|inform|mention|ask|notify)\b.{0,20}\b(?:user|anyone|this)\b",
        r"\bwithout (?:telling|asking|informing|notifying)\b",
        r"\b(?:system administrator|mandatory|binding for every)\b",
        r"</?\s*(?:important|information|instructions?|system|admin)\s*>",
    )
)


# Verbs that only read: for these the thing read ("balance", "file") may stand for the action in the request.
_READ_VERBS = frozenset({"get", "list", "read", "fetch", "search", "find", "show", "view", "check", "lookup", "query"})
_WORD = re.compile(r"[a-z0-9]+")


def requested(call: ToolCall, task: str, results: Sequence[str] = ()) -> bool:
    """Whether the user asked for exactly this call: the request names its action and holds every value.

    Deterministic, and no attacker can satisfy it: an injection can steer the planner but cannot add to the
    request. The action is the tool name's first word ("send" of send_money); a read-only verb (get, read,
    list, ...) may be matched by what it reads instead ("balance" of get_balance), and its values may also come
    from earlier `results` (with injected spans cut): reading what a result named is how tasks proceed, and
    anything sent on is validated when it is sent. Words match on their first five letters
    (transaction/transactions). Saves the validator calls, and the 0.5B validator's false "no"."""
    request = task.lower()
    words = {w[:5] for w in _WORD.findall(request)}
    name = [w for w in re.split(r"[_\-\s]+|(?<=[a-z0-9])(?=[A-Z])", call.name.lower()) if w]
    if not name:
        return False
    reads = name[0] in _READ_VERBS
    if not any(w[:5] in words for w in (name if reads else name[:1]) if len(w) >= 3):
        return False
    known = "\n".join([request, *(tp.without_injections(r).lower() for r in results)]) if reads else request
    # A read's integer arguments are counts, limits or pages, not data the user must name: get_transactions(n=100)
    # for "see transaction history". Measured: the 0.5B validator rejected that call twice and blocked the task.
    values = [v for v in _leaf_values(call.arguments) if not (reads and type(v) is int)]
    return all(_in_request(value, known) for value in values)


def _results(steps: Sequence[tp.GuardStep]) -> list[str]:
    return [step.source or step.result for step in steps if not step.error]


def _leaf_values(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return [v for value in node.values() for v in _leaf_values(value)]
    if isinstance(node, list | tuple):
        return [v for value in node for v in _leaf_values(value)]
    return [node]


def _in_request(value: Any, request: str) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        number = float(value)
        return any(float(m.replace(",", "")) == number for m in re.findall(r"\d[\d,]*(?:\.\d+)?", request))
    text = str(value).strip().lower()
    return bool(text) and text in request


def description_injection(spec: ToolSpec, tool_names: Collection[str]) -> list[str]:
    """Why `spec`'s description looks like it carries an injection (empty: it does not). Deterministic.

    A tool's description documents that tool. One that gives orders, names another tool, or carries
    identifiers (IBANs, e-mail addresses, URLs, account numbers: where an attacker wants things sent) is the
    *influenced* tool the poison lives in, so Tool-Guard quarantines it before any plan reads it. A false
    positive costs one extra plan per step, not the tool: a quarantined tool stays usable when validated."""
    text = " ".join(spec.description.split())
    reasons = [f"order {m.group()!r}" for p in AUTHORITY_PATTERNS if (m := p.search(text))]
    others = sorted(n for n in tool_names if n != spec.name and len(n) > 3 and re.search(rf"\b{re.escape(n)}\b", text))
    if others:
        reasons.append(f"names other tools {others}")
    identifiers = list(dict.fromkeys(f"{f.value!r} ({f.kind})" for f in sensitive_values({"d": text})))
    if identifiers:
        reasons.append("carries identifiers " + ", ".join(identifiers[:3]))
    return reasons


def sanitized_description(spec: ToolSpec, tool_names: Collection[str]) -> str:
    """A flagged description cut to what documents the tool: tagged blocks removed, then the sentences before
    the first one that `description_injection` flags ("" when the first is flagged). Plans see this, so a
    quarantined tool stays usable without its poison steering the plan that offers it."""
    kept: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", tp.TAGGED.sub(" ", " ".join(spec.description.split()))):
        if description_injection(replace(spec, description=sentence), tool_names):
            break
        kept.append(sentence)
    return " ".join(kept).strip()


__all__ = [
    "AUTHORITY_PATTERNS",
    "CHECKS",
    "Checks",
    "Verdict",
    "declared_only",
    "description_injection",
    "requested",
    "sanitized_description",
]
