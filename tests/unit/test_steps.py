"""Explicit task steps ("X, then Y"): how tasks split, and how the loop holds a chain to its steps."""

from __future__ import annotations

import pytest

from agentcore import prompting
from agentcore.agent import Agent
from agentcore.errors import ModelError
from agentcore.messages import ModelRequest, ToolCall
from agentcore.policies.context import observations, task_of
from agentcore.steps import StepPlan, split_steps
from agentcore.testing import FunctionModel, ScriptedModel, Turn, call
from agentcore.tools.function import tool


@tool
def lookup(key: str) -> str:
    """Price of a product."""
    return {"laptop": "899"}[key]


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    left, _, right = expression.partition("*")
    return str(int(left) * int(right))


@pytest.mark.parametrize(
    ("task", "steps"),
    [
        (
            "Look up the price of a laptop, then multiply it by 3.",
            ("Look up the price of a laptop", "multiply it by 3"),
        ),
        (
            "What do 3 laptops cost? Look up the price, then multiply it by 3.",
            ("Look up the price", "multiply it by 3"),
        ),
        ("Count the days; then divide by 7, and then round it.", ("Count the days", "divide by 7", "round it")),
        (
            "Convert 3 miles to feet. Then divide the result by 2.",
            ("Convert 3 miles to feet", "divide the result by 2"),
        ),
        ("Read the file and then summarise it", ("Read the file", "summarise it")),
        # "and" or a comma before an instruction verb, outside quotes, also opens a step
        ("Look up the price of a lamp and double it.", ("Look up the price of a lamp", "double it")),
        (
            "Look up what a keyboard costs, triple it, and take 20 off.",
            ("Look up what a keyboard costs", "triple it", "take 20 off"),
        ),
        ("Count the words in 'sort and add' and square it", ("Count the words in 'sort and add'", "square it")),
        ("Fetch a, fetch b, and add the two", ("Fetch a", "fetch b", "add the two")),
        ("A lamp is on sale. Look it up and halve it", ("Look it up", "halve it")),
        ("Get the price, add 5, and split the total among 3", ("Get the price", "add 5", "split the total among 3")),
        (
            "Convert 2 km to m, add 350, and express the sum in miles",
            ("Convert 2 km to m", "add 350, and express the sum in miles"),  # a unit to reach: the conversion check's
        ),
        ("Get x, then read y and sum both", ("Get x", "read y", "sum both")),
        (
            "Look up the keyboard price, then take 10, then halve it",
            ("Look up the keyboard price", "take 10", "halve it"),
        ),
        (  # a value given opens the step that takes it (independent1's ar21)
            "Take 40 °C, convert it to Fahrenheit, add 10, and halve the result",
            ("Take 40 °C, convert it to Fahrenheit", "add 10", "halve the result"),
        ),
    ],
)
def test_split_steps_follows_the_users_then(task: str, steps: tuple[str, ...]) -> None:
    assert split_steps(task) == steps


@pytest.mark.parametrize(
    "task",
    [
        "What is 347 * 29?",
        "What is the total price of one keyboard and one mouse?",
        "What do 3 monitors and 2 keyboards cost?",  # "and" between nouns
        "Reverse 'look and add' please",  # quoted material
        "What is the tablet's price and its weight?",
        "If it rains, then take an umbrella",  # "then" without a clause break is not a chain
        "Authenticate first, then",  # an empty step is not a plan
        ", then ".join(f"step {i}" for i in range(8)),  # too many to be a plan a small model can follow
    ],
)
def test_split_steps_invents_no_plan(task: str) -> None:
    assert split_steps(task) == ()


def test_plan_progress() -> None:
    plan = StepPlan.of("Look it up, then double it")
    assert (plan.current, plan.remaining) == ("Look it up", 2)
    plan.advance("r")
    assert (plan.current, plan.remaining) == ("double it", 1)
    plan.advance("r")
    plan.advance("r")
    assert (plan.current, plan.remaining, plan.done, plan.results) == (None, 0, 2, ["r", "r"])


def test_a_call_that_does_the_next_steps_too_completes_them() -> None:
    plan = StepPlan.of("Count the words in 'one two', multiply the count by 3, and subtract 5.")
    plan.advance("2", {"text": "one two"})
    plan.advance("1", {"expression": "2 * 3 - 5"})  # both numbers: steps 2 and 3 done by one call
    assert plan.remaining == 0 and plan.results == ["2", "1", "1"]
    again = StepPlan.of("Convert 10 miles to km and add 10.")
    again.advance("16.09344", {"value": 10, "from_unit": "mi", "to_unit": "km"})
    assert again.remaining == 1  # 10 is step 1's own number: the call did not add it
    partial = StepPlan.of("Count the words in 'one two', multiply the count by 3, and subtract 5.")
    partial.advance("2", {"text": "one two"})
    partial.advance("6", {"expression": "2 * 3"})
    assert partial.remaining == 1 and partial.current == "subtract 5"


async def test_every_short_result_is_carried_to_the_next_step() -> None:
    """ "Add the three numbers" needs all of them; with only the last one restated Qwen 0.5B added two."""

    @tool
    def read(name: str) -> str:
        """Read a file."""
        return {"a": "120", "b": "345"}[name]

    model = ScriptedModel([call("read", name="a"), call("read", name="b"), call("calculator", expression="1 * 1"), "x"])
    await Agent(model, tools=[read, calculator]).run("Read a, then read b, then add the two numbers")
    assert "The result to use is 120." in model.requests[1].messages[-1].content
    assert "The results to use are 120 and 345." in model.requests[2].messages[-1].content


TASK = "Look up the price of a laptop, then multiply it by 3."


async def test_no_final_answer_while_a_step_remains() -> None:
    """A model that would stop after step 1 (answering with the lookup) is offered only tools until step 2 ran.
    Before step 1 a final answer stays allowed (a "then" in a task that needs no tool)."""

    def turn(request: ModelRequest) -> Turn:
        if not any(m.content.startswith("Result of") for m in request.messages):
            return call("lookup", key="laptop")
        if request.allow_final:
            return "the answer"
        return call("calculator", expression="899 * 3")

    model = FunctionModel(turn)
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert [r.allow_final for r in model.requests] == [True, False, True]
    assert [step.result for step in result.steps if step.call] == ["899", "2697"]


async def test_a_scripted_final_answer_is_refused_where_the_grammar_forbids_it() -> None:
    model = ScriptedModel(["too early"])
    request = ModelRequest(messages=(prompting.task_message("t"),), tools=(lookup.spec,), allow_final=False)
    with pytest.raises(ModelError, match="allows only a tool call"):
        await model.complete(request)


async def test_chain_runs_each_step_and_names_the_next() -> None:
    model = ScriptedModel([call("lookup", key="laptop"), call("calculator", expression="899 * 3"), "2697"])
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert result.output == "2697"
    first, second, last = model.requests
    assert first.messages[1].content.endswith(
        "This task has 2 steps. Step 1: Look up the price of a laptop. Call a tool for it."
    )
    step_two = second.messages[-1].content
    assert "That was step 1 of 2. Next step: multiply it by 3. The result to use is 899." in step_two
    assert (first.allow_final, second.allow_final, last.allow_final) == (True, False, True)
    assert "All 2 steps are done" in last.messages[-1].content
    [steps] = [entry for entry in result.trace if entry.get("kind") == "steps"]
    assert steps["steps"] == ["Look up the price of a laptop", "multiply it by 3"]


async def test_a_failed_call_does_not_complete_a_step() -> None:
    model = ScriptedModel(
        [call("lookup", key="phone"), call("lookup", key="laptop"), call("calculator", expression="899 * 3"), "2697"]
    )
    result = await Agent(model, tools=[lookup, calculator]).run(TASK)
    assert result.output == "2697"
    assert [r.allow_final for r in model.requests] == [True, True, False, True]


async def test_a_then_that_needs_no_tool_can_still_be_answered() -> None:
    """Before the first step the model may answer: "then" in a story is not a chain of tool calls."""
    model = ScriptedModel(["It slept and woke."])
    result = await Agent(model, tools=[lookup]).run("Tell me about a cat that sleeps, then wakes up.")
    assert result.output == "It slept and woke."
    assert model.requests[0].allow_final


async def test_follow_steps_can_be_switched_off() -> None:
    class Free(Agent[None, str]):
        follow_steps = False
        check_unfinished = False  # the other guard against stopping early (tests/unit/test_unfinished.py)

    model = ScriptedModel([call("lookup", key="laptop"), "899"])
    result = await Free(model, tools=[lookup, calculator]).run(TASK)
    assert result.output == "899"
    assert model.requests[0].messages[1].content == f"Task: {TASK}"


async def test_repeats_still_end_a_chain() -> None:
    """The plan never traps a model that loops: a second repeat leaves only the final answer, as before."""

    def turn(request: ModelRequest) -> Turn:
        return call("lookup", key="laptop") if request.tools else "gave up"

    model = FunctionModel(turn)
    result = await Agent(model, tools=[lookup, calculator], max_steps=8).run(TASK)
    assert result.output == "gave up"
    assert len(model.requests) <= 6


def test_context_policy_still_finds_plan_observations() -> None:
    """policies.context trims old results by recognising observations; plan lines must not hide them."""
    plan = StepPlan.of(TASK)
    lookup_call = ToolCall("lookup", {"key": "laptop"})
    long_result = "899 " + "x" * 200
    plan.advance(long_result)
    messages = [
        prompting.task_message(TASK, StepPlan.of(TASK)),
        prompting.assistant_turn(lookup_call, None),
        prompting.observation(TASK, lookup_call, long_result, plan=plan),
    ]
    assert task_of(messages) == TASK
    [found] = observations(messages)
    assert found.result == long_result
    assert found.part.progress is not None and found.part.progress.current == "multiply it by 3"
    assert messages[found.index].content.endswith("Next step: multiply it by 3. Call a tool for it.")


def test_the_results_carried_to_the_next_step_are_those_no_later_call_took() -> None:
    plan = StepPlan.of("Look up the price of a desk lamp, multiply it by 3, and add the price of a usb cable.")
    plan.advance("32.4", {"key": "desk lamp"})
    plan.advance("97.2", {"expression": "32.4 * 3"})
    assert plan.open_results == ["97.2"]  # 32.4 went into the product: only that is left to add to
    reads = StepPlan(("read a", "read b", "add them"))
    reads.advance("4", {"name": "a"})
    reads.advance("Lima", {"name": "b"})
    assert reads.open_results == ["4", "Lima"]  # nothing taken yet; a result in words is always open


@tool(read_only=True)
def price_of(key: str) -> str:
    """Price of a product."""
    return {"desk lamp": "32.4", "usb cable": "8.75"}[key]


@tool(read_only=True)
def calc(expression: str) -> str:
    """Evaluate arithmetic."""
    left, op, right = expression.split()
    return str(round(float(left) * float(right) if op == "*" else float(left) + float(right), 6))


async def test_a_step_that_names_an_item_not_fetched_asks_for_it_first_and_the_fetch_does_not_end_the_step() -> None:
    model = ScriptedModel(
        [
            call("price_of", key="desk lamp"),
            call("calc", expression="32.4 * 3"),
            call("price_of", key="usb cable"),
            call("calc", expression="97.2 + 8.75"),
            "105.95",
        ]
    )
    task = "Look up the price of a desk lamp, multiply it by 3, and add the price of a usb cable."
    result = await Agent(model, tools=[price_of, calc]).run(task)
    assert result.output == "105.95"
    asked = model.requests[2]
    assert "It needs usb cable, which no call has fetched yet" in asked.messages[-1].content
    assert [t.name for t in asked.tools] == ["price_of"]  # the tool that fetched an item is required
    after = model.requests[3].messages[-1].content
    assert "That was step 2 of 3. Next step: add the price of a usb cable." in after
    assert "The results to use are 97.2 and 8.75." in after


def test_a_step_no_tool_does_joins_the_next() -> None:
    """independent14's cg24: "write them on one line separated by spaces" is no tool's step; the word count of
    that line is."""
    task = (
        "Look up the symbols for carbon, hydrogen and oxygen, write them on one line separated by spaces, count"
        " the words in that line, and multiply the count by 11."
    )
    docs = {"symbol", "count", "words", "text", "evaluate", "arithmetic"}

    def fits(step: str) -> bool:
        return any(word.strip(",.").lower() in docs for word in step.split())

    assert split_steps(task, fits) == (
        "Look up the symbols for carbon, hydrogen and oxygen",
        "write them on one line separated by spaces, count the words in that line",
        "multiply the count by 11",
    )
    assert len(split_steps(task)) == 4  # without the tools' docs, every step stands
    # a step of arithmetic with no number is the calculator's: "double it" stays a step of its own
    assert split_steps("Look up the symbol of gold, then double it, then count the words", fits) == (
        "Look up the symbol of gold",
        "double it",
        "count the words",
    )
    # joined only into a step a tool does
    assert split_steps("Write a poem, then sing it", fits) == ("Write a poem", "sing it")
    # never the first step: a lookup whose words are not the tool's ("costs", not "prices") is a step of its own
    assert split_steps("Look up what a monitor costs and multiply it by four", fits) == (
        "Look up what a monitor costs",
        "multiply it by four",
    )
