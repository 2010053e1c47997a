"""The state of one run, shared by the loop (`agentcore.loop`) and its checks (`agentcore.answer_checks`,
`agentcore.loop_checks`): `LoopSettings`, `RunDeps` (all the loop knows of its owner) and `Run` (the mutable state
of one run)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentcore.context import RunContext
from agentcore.events import Event, Notice
from agentcore.messages import Message, ToolCall, ToolSpec, Usage
from agentcore.policy import Chain
from agentcore.result import Ledger, RunStatus, Step
from agentcore.steps import StepPlan

if TYPE_CHECKING:
    from agentcore.models.base import Model
    from agentcore.tools.toolset import Toolset


@dataclass(frozen=True, slots=True)
class LoopSettings:
    max_steps: int = 8
    max_tokens: int = 256
    retries: int = 2  # model-output and final-answer retries; tools have their own (Toolset.tool_settings)
    think: int = 0
    output_schema: dict[str, Any] | None = None
    constrain_final: bool = True
    check_unfinished: bool = True  # agentcore.unfinished: a final answer that only repeats a result goes back once
    check_sources: bool = True  # agentcore.unfinished: a final answer with numbers no tool returned goes back once
    fetch_first: bool = False  # agentcore.fetch_first: a first call on made-up numbers waits for the task's items
    answer_at_limit: bool = True  # agentcore.loop.last_turn: the last turn max_steps allows offers only an answer


@dataclass(frozen=True, slots=True)
class RunDeps:
    """What a run needs from whoever started it."""

    model: Model
    toolset: Toolset
    chain: Chain
    settings: LoopSettings
    parse_output: Callable[[str], Any]


@dataclass(slots=True)
class Run:
    """Mutable state of one run."""

    deps: RunDeps
    ctx: RunContext[Any]
    specs: tuple[ToolSpec, ...]
    messages: list[Message]
    emit: Callable[[Event], None]
    steps: list[Step] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    seen_calls: dict[str, str] = field(default_factory=dict)
    failed_calls: set[str] = field(default_factory=set)
    tool_retries: dict[str, int] = field(default_factory=dict)  # per tool name
    output_retries: dict[str, int] = field(default_factory=dict)  # "model" output, "output" type
    final_only: bool = False
    last_turn: bool = False  # the last turn max_steps allows offered only an answer (agentcore.loop.last_turn)
    excluded: frozenset[str] = frozenset()
    offered: frozenset[str] = frozenset()  # the tools of the last turn's request: nothing else may run
    repeats: int = 0
    forced: frozenset[str] | None = None  # tools the next turn must call (None: no constraint; used once)
    forced_once: bool = False
    unfinished_results: list[str] = field(default_factory=list)  # results an answer repeated; checked twice
    again_sent: int = 0  # notices that named an action to do again on the task's other numbers (agentcore.again)
    again_at: int = 0  # the good steps there were at the last of them: the next needs a new good call
    rest_sent: int = 0  # notices that named a tool the task names and no call used (agentcore.named_rest)
    rest_at: int = 0  # the good steps there were at the last of them: the next needs a new good call
    unfinished_named: bool = False  # an unfinished notice named task values no call used: one more check allowed
    unfinished_pending: tuple[int, tuple[str, ...], str] | None = None  # steps, numbers and result of that notice
    unfetchable: tuple[str, ...] = ()  # listed task words the tool that fetched an item rejects (unfetchable)
    probed_items: tuple[str, ...] = ()  # task words the last read-only tool accepts that no call used (probe)
    resolved: set[str] = field(default_factory=set)  # calls run with the values their names stood for (named)
    unfetched: tuple[str, ...] = ()  # task words a read-only tool accepts, after one made-up number (unfetched)
    items_probed: bool = False  # probed_items named an item once: the results of that tool are to be combined
    sources_checked: bool = False
    unsourced_sent: bool = False  # an answer went back for numbers no tool returned; a second one is replaced
    guess_checked: bool = False
    stale_checked: bool = False
    stale_fix: ToolCall | None = None  # the call a stale notice wrote out: run if the input is taken again
    written_fix: ToolCall | None = (
        None  # the call a portion, power or held-step notice wrote out: run for a bare number
    )
    doubled_checked: bool = False
    beside_checked: bool = False  # a call that counted an input beside its result was held back once
    combined_at: list[int] = field(default_factory=list)  # good steps done when the uncombined check fired
    placeholder_checked: bool = False
    row_checked: bool = False
    fit_checked: bool = False  # the first call of a tool with side effects was judged against the task's words
    closer_checked: bool = False  # the first call of a tool with side effects was judged against the other tools
    step_closer_at: int = -1  # the plan step whose first call was judged against the other tools' docs
    fit_held: ToolCall | None = None  # that call, when it was held back: a numeric answer may then call it
    copied_checked: bool = False  # an answer that was a call's own input went back once for its result
    restated_sent: bool = False  # an answer of the task's own numbers went back; a second one is replaced
    redone_checked: bool = False  # an answer from a line a later call started again went back
    replaced_checked: bool = False  # the tool's result put in place of an insisted number went through the checks
    redone_fix: ToolCall | None = None  # the line that notice wrote on the later result
    redone_value: str = ""  # the old line's result: given again after the fix ran, the fix's result wins
    used_up_checked: bool = False  # an answer that a later call had already used went back
    portion_checked: bool = False  # an answer that was a part of a value still to add to went back (portions)
    power_checked: bool = False  # an answer that the task still squares or cubes went back (powers)
    unit_checked: bool = False  # an answer in its tool's unit of time went back once for the task's unit
    converted_checked: bool = False  # an answer before the unit the task asks for went back once (unit_names)
    conversion_fix: ToolCall | None = None  # the conversion that notice wrote out: it runs unchallenged
    restarted: set[str] = field(default_factory=set)  # calls on the number that conversion took: superseded
    memory_checked: bool = False  # a first answer from memory went back once for the tool the task describes
    unsupplied_held: int = 0  # calls held back for required values no one gave; at 2 the run may only answer
    made_up_at: list[int] = field(default_factory=list)  # good steps done when the made-up check fired
    made_up_calls: set[str] = field(default_factory=set)  # the calls it found on made-up inputs: they used nothing
    made_up_result_checked: bool = False  # a call that took the result of such a call was held back once
    mixed_checked: bool = False  # a call combining two units of one kind was held once (agentcore.mixed_units)
    kinds_checked: bool = False  # a count added to a value of another kind was held once (agentcore.mixed_kinds)
    mixed_held: tuple[ToolCall, str, str] | None = None  # ... that call, its number, the conversion's signature
    mixed_conversion: ToolCall | None = None  # ... the conversion its notice showed, due on a repeated conversion
    total: str | None = None  # the result of a call that totalled every counted item (count_checks)
    counts_multiplied_checked: bool = False  # a call that multiplied two items' counts together was held back once
    counted_twice_checked: bool = False  # a call that added a sum's own term to its result was held back once
    refilled: bool = False  # a failed call repeated after new numbers was sent back once to be written with them
    done_again_checked: bool = False  # a calculation done again on its own result was held back once
    made_up_again_checked: bool = False  # a call that took such a call's made-up numbers again was held back once
    fetch_first_checked: bool = False  # a first call on made-up numbers was probed for items (agentcore.fetch_first)
    fetch_first_holds: int = 0  # ... how many calls were taken back
    fetch_first_items: tuple[str, ...] = ()  # ... and the items the probe found
    plan: StepPlan = field(default_factory=lambda: StepPlan(()))
    output: Any = None
    status: RunStatus = "completed"
    error: str | None = None
    failure: BaseException | None = None  # what ended the run abnormally (re-raised by the owner)
    model_name: str = ""

    @property
    def usage(self) -> Usage:
        return self.ctx.usage  # child runs add theirs here too

    def notice(self, message: str, **data: Any) -> None:
        self.ctx.record("notice", message=message, **data)
        self.emit(Notice(self.ctx.run_id, self.ctx.step, message, data))
