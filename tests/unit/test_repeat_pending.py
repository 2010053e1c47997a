"""A call repeated right after the unfinished notice names the numbers still to use (run_reads.pending_again)."""

from __future__ import annotations

from agentcore import Agent
from agentcore.testing import ScriptedModel, call
from bench import toolbox

TASK = "4 pounds written in grams, divided by 8?"
CONVERT = call("unit_convert", value=4, from_unit="lb", to_unit="g")


TOOLS = toolbox.agent_tools(["unit_convert", "calculator"])


async def test_a_repeat_after_the_unfinished_notice_names_the_numbers_still_to_use() -> None:
    """compose31's al06 (held out): the result answered, the conversion called again, then answered again."""
    # 8 grams: a quantity a converter may take, so the notice before the repeat leaves every tool offered
    # (a number alone to combine offers only the calculator: answer_checks._arithmetic_next)
    model = ScriptedModel(
        [CONVERT, "1814.36948", CONVERT, call("calculator", expression="1814.36948 - 8"), "1806.36948"]
    )
    result = await Agent(model, tools=TOOLS).run("4 pounds written in grams, less 8 grams?")
    notice = str(model.requests[3].messages[-1].content)
    assert "The task still uses 8: call a different tool for the next step with 1814.36948 and 8." in notice
    assert "final_answer" not in notice
    assert [t.name for t in model.requests[3].tools] == ["calculator"]
    assert result.output == "1806.36948"


async def test_a_repeat_later_in_the_run_gets_the_plain_notice() -> None:
    """A step came between the notice and the repeat: what that notice named may be stale."""
    model = ScriptedModel([CONVERT, "1814.36948", call("calculator", expression="2 + 2"), CONVERT, "1814.36948"])
    await Agent(model, tools=TOOLS).run(TASK)
    notice = str(model.requests[4].messages[-1].content)
    assert notice.endswith("call a different tool for the next step, or reply with the final_answer.")


async def test_a_repeat_with_nothing_pending_gets_the_plain_notice() -> None:
    model = ScriptedModel([CONVERT, CONVERT, "1814.36948"])
    await Agent(model, tools=TOOLS).run("4 pounds written in grams?")
    assert "still uses" not in str(model.requests[2].messages[-1].content)


async def test_a_repeat_of_another_call_after_the_notice_gets_the_plain_notice() -> None:
    """compose12's e06: `3 * 5` before converting the 3 pounds, and again after the notice. Offered the calculator
    with the 5 named, the model wrote `3 * 5` a third time (tried at the thirtieth stop); excluded, it goes on."""
    opening = call("calculator", expression="3 * 5")
    convert = call("unit_convert", value=3, from_unit="lb", to_unit="kg")
    model = ScriptedModel([opening, "15", convert, "1.360777", opening, "6.803885"])
    await Agent(model, tools=TOOLS, max_steps=6).run("Multiply the weight of 3 pounds in kilograms by 5.")
    notice = str(model.requests[5].messages[-1].content)
    assert notice.startswith("You already called calculator") and "still uses" not in notice
    assert "calculator" not in [t.name for t in model.requests[5].tools]


async def test_a_repeated_call_is_not_the_latest_result() -> None:
    """compose28's ai17: `350 / 8 * 1000` = 43750 before the conversion to 0.35, repeated after it; the insisted
    answer was replaced by 43750 and the unfinished notice asked for "43750 and 8"."""
    opening = call("calculator", expression="350 / 8 * 1000")
    convert = call("unit_convert", value=350, from_unit="ml", to_unit="l")
    script = [opening, "80000", convert, "28000", opening, "28000", call("calculator", expression="0.35 * 8"), "2.8"]
    model = ScriptedModel(script)
    result = await Agent(model, tools=TOOLS).run("A mug holds 350 milliliters. How many liters do 8 mugs hold?")
    replaced = [e for e in result.trace if e["kind"] == "notice" and "replaced by the tool's result" in e["message"]]
    assert replaced and replaced[0]["result"] == "0.35"
    assert "0.35 is only the result of the last step, and the task still uses 8" in str(
        model.requests[6].messages[-1].content
    )
    assert result.output == "2.8"
