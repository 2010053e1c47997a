"""RoutingPolicy: the router's decision shapes the run and is explained in the trace."""

from __future__ import annotations

from agentcore import Agent, tool
from agentcore.messages import ModelRequest, ToolSpec
from agentcore.policies.routing import RoutingPolicy, mentions_tools
from agentcore.testing import FunctionModel, ScriptedModel, call


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    return "4"


@tool
def unit_convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert units."""
    return value


async def test_direct_question_gets_no_tools_and_one_call() -> None:
    model = ScriptedModel(["Paris"])
    result = await Agent(model, tools=[calculator], policies=[RoutingPolicy()]).run("What is the capital of France?")
    assert result.output == "Paris" and len(model.requests) == 1
    assert model.requests[0].tools == ()
    route = next(entry for entry in result.trace if entry["kind"] == "route")
    assert route["plan"] == "direct" and route["tools_offered"] is False and route["reasons"]


async def test_tool_task_keeps_its_tools() -> None:
    model = ScriptedModel([call("calculator", expression="2+2"), "4"])
    result = await Agent(model, tools=[calculator], policies=[RoutingPolicy()]).run("What is 2 + 2?")
    assert [s.name for s in model.requests[0].tools] == ["calculator"]
    assert result.output == "4"


def test_mentions_tools_sees_digits_and_tool_words() -> None:
    specs = [calculator.spec(), unit_convert.spec()]
    assert mentions_tools("Convert five miles to km", specs)
    assert mentions_tools("What is 3 squared?", specs)
    assert not mentions_tools("Who wrote Hamlet?", specs)


def test_mentions_tools_folds_plurals_and_reads_the_description_summary() -> None:
    count = ToolSpec("word_count", "Count the words in a text.", {"type": "object", "properties": {}})
    lookup = ToolSpec(
        "lookup",
        "Look up a key in a table: elements (element -> symbol), prices (product -> price in dollars).\n\n"
        "Args:\n    key: what to look up, e.g. a country",
        {"type": "object", "properties": {}},
    )
    assert mentions_tools("How many words are in 'small models need good tools'?", [count])
    assert mentions_tools("What is the chemical symbol of tungsten?", [lookup])
    assert mentions_tools("How much does a backpack cost, in dollars?", [lookup])
    assert not mentions_tools("Which country has the most lakes?", [lookup])  # "country" is only in Args
    assert not mentions_tools("What does a cat say?", [count, lookup])  # "does", "what": no subject


async def test_tier_sends_turns_to_the_tier_model() -> None:
    seen: list[str] = []

    def big(request: ModelRequest) -> str:
        seen.append("big")
        return "answer"

    main = ScriptedModel([])
    policy = RoutingPolicy(tiers={"small": FunctionModel(big)})
    result = await Agent(main, policies=[policy]).run("Who wrote Hamlet?")
    assert seen == ["big"] and result.output == "answer" and main.requests == []


async def test_default_router_sends_a_run_offered_two_tools_to_the_large_tier() -> None:
    small = ScriptedModel([call("calculator", expression="2+2"), "4"])
    large = ScriptedModel([call("calculator", expression="2+2"), "4"])
    policy = RoutingPolicy(tiers={"small": small, "large": large})
    one = await Agent(small, tools=[calculator], policies=[policy]).run("What is 2 + 2?")
    two = await Agent(small, tools=[calculator, unit_convert], policies=[policy]).run("What is 2 + 2?")
    assert one.output == "4" and len(small.requests) == 2  # one tool: the small tier, both turns
    assert two.output == "4" and len(large.requests) == 2  # two tools: every turn on the large tier
    route = next(entry for entry in two.trace if entry["kind"] == "route")
    assert route["tier"] == "large" and any("min_tier_tools" in reason for reason in route["reasons"])
