"""Tool-Guard's clean-context model calls: plans A and B, the decision matrix, and the final answer.

Plan A sees only the quarantined (`influenced`) tools, flagged descriptions cut before their first order; plan
B sees the others. Both must call a tool (`allow_final=False`; `no_tool_suitable` is their "nothing to do").
Decision: only A -> A, only B -> B, both -> a seeded random pick, neither -> None (the caller writes the
final answer, in a clean context built from the validated results only).
"""

from __future__ import annotations

from dataclasses import replace

from agentcore.messages import ModelRequest, ModelResponse, ToolCall, ToolSpec
from agentcore.policies import toolguard_prompts as tp
from agentcore.policies.toolguard_checks import declared_only
from agentcore.policies.toolguard_state import Turn


async def plan(turn: Turn) -> ToolCall | None:
    """Plans A and B, then the decision matrix. Sequential: llama.cpp serialises calls anyway."""
    state = turn.state
    tools = [s for s in turn.request.tools if s.name not in state.dropped]
    influenced = [s for s in tools if s.name in state.influenced]
    others = [s for s in tools if s.name not in state.influenced]
    proposals = {
        "A": await propose(turn, "A", influenced) if influenced else None,
        "B": await propose(turn, "B", others) if others else None,
    }
    chosen = [(label, call) for label, call in proposals.items() if call is not None]
    if not chosen:
        turn.record("decision", plan=None)
        return None
    label, call = chosen[0] if len(chosen) == 1 else state.rng.choice(chosen)
    turn.record("decision", plan=label, call=call.signature(), random=len(chosen) > 1)
    return call


async def propose(turn: Turn, label: str, tools: list[ToolSpec]) -> ToolCall | None:
    """One plan's next call over `tools`, or None: no tool, an undeclared tool, or a repeat of a done call.
    Arguments the tool does not declare are dropped (`declared_only`)."""
    flagged = turn.state.flagged
    shown = [replace(s, description=flagged[s.name]) if s.name in flagged else s for s in tools]
    offered = (*shown, tp.NO_TOOL_SPEC)
    if turn.plan_layout == "stable_first":
        listed, late = layout(turn, label, shown)
        if label == "B" and turn.state.description_scan:  # scan off: B may list a poisoned description
            turn.state.listed = (*listed, tp.NO_TOOL_SPEC)
        messages = tp.plan_messages(
            turn.instructions(), turn.ctx.task, (*listed, tp.NO_TOOL_SPEC), turn.state.steps, allowed=offered, late=late
        )
    else:
        messages = tp.plan_messages_tools_first(turn.instructions(), turn.ctx.task, offered, turn.state.steps)
    request = ModelRequest(
        messages=messages,
        tools=offered,
        output_schema=None,
        allow_final=False,
        max_tokens=turn.request.max_tokens,
        constrain=True,
    )
    raw = (await turn.ask(request)).tool_call
    specs = {spec.name: spec for spec in tools}
    call = declared_only(raw, specs[raw.name]) if raw is not None and raw.name in specs else None
    done = {step.call.signature() for step in turn.state.steps}
    proposal = call if call is not None and call.signature() not in done else None
    turn.record(
        "plan",
        plan=label,
        tools=sorted(specs),
        proposed=raw.signature() if raw else None,
        dropped=sorted(set(raw.arguments) - set(call.arguments)) if raw and call else [],
        counted=proposal is not None,
    )
    return proposal


def layout(turn: Turn, label: str, shown: list[ToolSpec]) -> tuple[list[ToolSpec], list[ToolSpec]]:
    """Which tools a plan's system message lists (the same all task long, so its KV state is reused) and which
    come late, in its last message (`shown`: the plan's tools, flagged descriptions cut).

    Plan B lists every tool the scan did not flag, those quarantined by a rejection since included: it saw them
    before the rejection anyway, and its allow-list and grammar no longer offer them. It never sees a flagged
    tool. With the scan on, plan A shares that system message (all it adds are descriptions that passed the
    scan and that plan B sees too) and gets the flagged tools, cut, late: its prompt extends plan B's. With the
    scan off (the paper's flow), the poison may sit in any description, so plan A lists none and gets its own
    tools late."""
    flagged = turn.state.flagged
    clean = [s for s in turn.request.tools if s.name not in flagged]
    if label == "B":
        return clean, []
    if turn.state.description_scan:
        return clean, [s for s in shown if s.name in flagged]
    return [], shown


async def final(turn: Turn, reason: str) -> ModelResponse:
    """The final answer, written in a clean context from the validated steps (never the poisoned prompt). In the
    stable-first layout with the description scan on, that context is plan B's (`state.listed`: only tools the
    scan passed), so the answer extends plan B's saved KV state instead of evaluating a prompt of its own."""
    request = turn.request
    if turn.plan_layout == "stable_first" and turn.state.listed:
        messages = tp.final_messages_stable_first(
            turn.instructions(), turn.ctx.task, turn.state.listed, turn.state.steps
        )
    else:
        messages = tp.final_messages(turn.instructions(), turn.ctx.task, turn.state.steps)
    answer = ModelRequest(
        messages=messages,
        tools=(),
        output_schema=request.output_schema,
        allow_final=True,
        max_tokens=request.max_tokens,
        constrain=request.constrain,
    )
    response = await turn.ask(answer)
    turn.record("final", reason=reason, validated_steps=len(turn.state.steps))
    return replace(response, tool_call=None, usage=turn.usage)


__all__ = ["final", "layout", "plan", "propose"]
