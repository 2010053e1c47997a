"""A failed call repeated while an item the task lists is still to fetch sends the model for it
(run_reads.items_after_failure)."""

from __future__ import annotations

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from bench import toolbox

TOOLS = toolbox.agent_tools(["lookup", "calculator"])
TASK = "What do 2 laptops and 3 mice cost all together?"
LAPTOP = call("lookup", table="prices", key="laptop")
BROKEN = call("calculator", expression="2 + 3 * (899")


async def test_a_failed_call_repeated_before_every_item_is_fetched_sends_the_model_for_the_item() -> None:
    """compose28's ai07: the laptop looked up, a broken expression twice, then the laptop's price as the answer."""
    script = [LAPTOP, BROKEN, BROKEN, call("lookup", table="prices", key="mouse")]
    script += [call("calculator", expression="2 * 899 + 3 * 19.95"), "1857.85"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=TOOLS).run(TASK)
    notice = str(model.requests[3].messages[-1].content)
    assert "The task still names mice, which no call has used: fetch that next." in notice
    assert [t.name for t in model.requests[3].tools] == ["lookup"] and not model.requests[3].allow_final
    assert result.output == "1857.85"


async def test_a_failed_call_repeated_once_every_item_is_fetched_allows_only_an_answer() -> None:
    mouse = call("lookup", table="prices", key="mouse")
    model = ScriptedModel([LAPTOP, mouse, BROKEN, BROKEN, "1857.85"])
    await Agent(model, tools=TOOLS).run(TASK)
    request = model.requests[4]
    assert "still names" not in str(request.messages[-1].content) and request.allow_final
    assert not request.tools


async def test_a_second_repeat_allows_only_an_answer_even_with_an_item_left() -> None:
    model = ScriptedModel([LAPTOP, LAPTOP, BROKEN, BROKEN, *["899"] * 4])  # the answer checks may send it back
    await Agent(model, tools=TOOLS).run(TASK)
    assert not model.requests[4].tools and model.requests[4].allow_final


async def test_a_failed_lookup_runs_with_the_dictionary_form_not_a_lookup_already_made() -> None:
    """ai07 again: `lookup("mice")` failed, and the probe ran the one task word that works, "laptops", looked up
    already: the model saw the laptop's price as the mice's. A call made before gives nothing new; the word's
    dictionary form ("mouse", agentcore.lemmas) is tried first."""
    laptops = call("lookup", table="prices", key="laptops")
    mice = call("lookup", table="prices", key="mice")
    model = ScriptedModel([laptops, mice, *["1857.85"] * 8])
    result = await Agent(model, tools=TOOLS).run(TASK)
    second = result.steps[1]
    assert second.call is not None and second.call.arguments["key"] == "mouse" and second.result == "19.95"


async def test_a_failed_lookup_is_not_probed_into_a_lookup_already_made() -> None:
    laptops = call("lookup", table="prices", key="laptops")
    model = ScriptedModel([laptops, call("lookup", table="prices", key="geese"), *["1857.85"] * 8])
    result = await Agent(model, tools=TOOLS).run(TASK)
    assert result.steps[1].tool_error and "899" not in str(result.steps[1].result)


async def test_an_expression_closed_on_a_dangling_operator_runs_without_it() -> None:
    """ai07, with both prices fetched: `2 * 899 + 3 * 19.95**`, then the same again."""
    laptops, mouse = call("lookup", table="prices", key="laptops"), call("lookup", table="prices", key="mouse")
    model = ScriptedModel([laptops, mouse, call("calculator", expression="2 * 899 + 3 * 19.95**"), "1857.85"])
    result = await Agent(model, tools=TOOLS).run(TASK)
    third = result.steps[2]
    assert third.call is not None and third.call.arguments["expression"] == "2 * 899 + 3 * 19.95"
    assert third.result == "1857.85" and result.output == "1857.85"


def test_only_a_free_string_ending_on_an_operator_is_cut() -> None:
    from agentcore.probe import cut_alternatives

    spec = TOOLS[1].spec()
    dangling = call("calculator", expression="2 + 3 * 899**")
    assert [c.arguments for c in cut_alternatives(dangling, spec)] == [{"expression": "2 + 3 * 899"}]
    assert cut_alternatives(call("calculator", expression="2 + 3"), spec) == []
    assert cut_alternatives(call("calculator", expression="** 2"), spec) == []
