"""Answers that restate a result the run has moved past (agentcore.moved_past), and the checks around them that
compose14's failures showed: a made-up result answered again after lookups, the part's next call written out on
a repeated call, and the last turn max_steps allows offering only an answer."""

from __future__ import annotations

import pytest

from agentcore.agent import Agent
from agentcore.events import Event, Notice
from agentcore.moved_past import last_result_instead, taken_result_instead
from agentcore.testing import ScriptedModel, call
from bench import toolbox

MONITOR = "What is the price of a monitor after taking off a fifth of it?"
MUGS = "How much do 4 coffee mugs and a keyboard cost altogether?"
LOOKUP = {"table": "prices", "key": "monitor"}


@pytest.mark.parametrize(
    ("answer", "steps", "made_up", "expected"),
    [
        # 215 went into the last call: the last result answers
        ("215", [(LOOKUP, "215"), ({"expression": "215 / 5"}, "43"), ({"expression": "215 - 43"}, "172")], (), "172"),
        ("It costs 215 dollars.", [(LOOKUP, "215"), ({"expression": "215 - 43"}, "172")], (), "It costs 172 dollars."),
        # a made-up result, whatever the last call took
        ("1004", [({"expression": "4 + 1000"}, "1004"), ({"expression": "4 * 7.25 + 45.9"}, "74.9")], {0}, "74.9"),
        # not taken by the last call, not made up: the model may be answering what was asked
        ("159", [(LOOKUP, "159"), ({"table": "prices", "key": "backpack"}, "49.5")], (), None),
        ("1004", [({"expression": "4 + 1000"}, "1004"), ({"expression": "4 * 7.25"}, "29")], {1}, None),
        ("172", [(LOOKUP, "215"), ({"expression": "215 - 43"}, "172")], (), None),  # already the last result
        ("215 and 172", [(LOOKUP, "215"), ({"expression": "215 - 43"}, "172")], (), None),  # two numbers
        ("215", [(LOOKUP, "215")], (), None),  # one step
        # the price fetched again after a call had used it: no progress, the answer stands (compose j15)
        ("192", [({"expression": "240 - (240 / 5)"}, "192"), (LOOKUP, "240")], {0}, None),
        ("215", [(LOOKUP, "215"), ({"expression": "215 - 43"}, "172 dollars")], (), None),  # not one number
    ],
)
def test_last_result_instead(
    answer: str, steps: list[tuple[dict[str, str], str]], made_up: set[int], expected: str
) -> None:
    assert last_result_instead(MONITOR, answer, steps, made_up) == expected


async def run(
    script: list[object], task: str, max_steps: int = 8, *, fetch_first: bool = True
) -> tuple[str | None, list[str], ScriptedModel]:
    model, events = ScriptedModel(script), list[Event]()  # type: ignore[arg-type]
    agent: Agent[None, str] = Agent(model, tools=toolbox.agent_tools(["lookup", "calculator"]), max_steps=max_steps)
    agent.fetch_first = fetch_first  # False: a made-up first call runs (agentcore.fetch_first)
    result = await agent.run(task, on_event=events.append)
    return result.output, [e.message for e in events if isinstance(e, Notice)], model


async def test_a_repeated_call_after_the_part_gets_the_next_call_written_out_and_a_lost_answer_the_last_result() -> (
    None
):
    """compose f15 as the model ran it: the part, the lookup again (the portion notice writes `215 - 43`), then
    two repeats and the price answered: with only an answer left, the last result answers."""
    script = [
        call("lookup", **LOOKUP),
        call("calculator", expression="215 / 5"),
        call("lookup", **LOOKUP),  # lost after the part
        call("calculator", expression="215 - 43"),
        call("lookup", **LOOKUP),
        call("calculator", expression="215 - 43"),
        "215",
    ]
    output, notices, model = await run(script, MONITOR)
    assert "final answer is a part of a value the task still adds to or takes from" in notices
    assert '"expression": "215 - 43"' in (model.requests[3].messages[-1].content or "")
    assert any("moved past" in n for n in notices) and output == "172"


async def test_a_made_up_total_answered_after_the_lookups_goes_back_until_the_prices_are_combined() -> None:
    script = [
        call("calculator", expression="4 + 1000"),
        "1004",
        call("lookup", table="prices", key="keyboard"),
        "1004",  # still made up, though a price came since
        call("lookup", table="prices", key="coffee mug"),
        "1004",  # both prices wait: combine them
        call("calculator", expression="4 * 7.25 + 45.9"),
        "74.9",
    ]
    output, notices, _ = await run(script, MUGS, fetch_first=False)
    assert notices.count("final answer was computed from made-up inputs; another tool is required") == 2
    assert "final answer repeats one of the results still to combine" in notices
    assert output == "74.9"


async def test_the_last_turn_answers_from_the_results_and_a_result_moved_past_gives_way() -> None:
    script = [
        call("calculator", expression="4 + 1000"),
        "1004",
        call("lookup", table="prices", key="keyboard"),
        call("lookup", table="prices", key="coffee mug"),
        call("calculator", expression="4 * 7.25 + 45.9"),
        "1004",  # the last turn of five: only an answer offered, and its made-up number gives way
    ]
    output, notices, model = await run(script, MUGS, max_steps=6, fetch_first=False)
    assert model.requests[-1].tools == ()
    assert any(n.startswith("last model turn") for n in notices) and output == "74.9"


CABLE = "What is a usb cable's price times the same usb cable price?"
CABLE_LOOKUP = {"table": "prices", "key": "usb cable"}
SQUARED = {"expression": "8.75 * 8.75"}


@pytest.mark.parametrize(
    ("task", "answer", "steps", "made_up", "expected"),
    [
        # compose31's al15: the calculation ran on the probed price before the lookup, both repeated
        (
            CABLE,
            "8.75",
            [(SQUARED, "76.5625"), (CABLE_LOOKUP, "8.75"), (SQUARED, "76.5625"), (CABLE_LOOKUP, "8.75")],
            (),
            "76.5625",
        ),
        (CABLE, "It is 8.75 dollars.", [(CABLE_LOOKUP, "8.75"), (SQUARED, "76.5625")], (), "It is 76.5625 dollars."),
        (CABLE, "8.75", [(SQUARED, "76.5625"), (CABLE_LOOKUP, "8.75")], {0}, None),  # the calculation was made up
        (CABLE, "76.5625", [(SQUARED, "76.5625"), (CABLE_LOOKUP, "8.75")], (), None),  # already its result
        # its result went on into another call: not the end of the line
        (
            CABLE,
            "8.75",
            [(CABLE_LOOKUP, "8.75"), (SQUARED, "76.5625"), ({"expression": "76.5625 - 1"}, "75.5625")],
            (),
            None,
        ),
        # two calculations took it and ended: which one answers is a guess
        (CABLE, "8.75", [(CABLE_LOOKUP, "8.75"), (SQUARED, "76.5625"), ({"expression": "8.75 * 2"}, "17.5")], (), None),
        # a question that chooses may quote an input
        (
            "Which costs more, a usb cable or a pen?",
            "8.75",
            [(CABLE_LOOKUP, "8.75"), ({"key": "pen"}, "1.2"), ({"expression": "8.75 - 1.2"}, "7.55")],
            (),
            None,
        ),
        (
            "Is a usb cable dearer than a pen?",
            "8.75",
            [(CABLE_LOOKUP, "8.75"), ({"expression": "8.75 - 1.2"}, "7.55")],
            (),
            None,
        ),
        # nothing returned the number: not a restated result
        (CABLE, "9", [(CABLE_LOOKUP, "8.75"), ({"expression": "9 * 9"}, "81")], (), None),
    ],
)
def test_taken_result_instead(
    task: str, answer: str, steps: list[tuple[dict[str, str], str]], made_up: set[int], expected: str | None
) -> None:
    assert taken_result_instead(task, answer, steps, made_up) == expected


async def test_a_price_answered_after_the_calculation_that_took_it_gives_way_to_that_result() -> None:
    """compose31's al15 (held out): the calculation ran first on the names' probed price, the lookup came after,
    both were repeated, and only an answer left: the lookup's price was answered."""
    names = call("calculator", expression="usb cable price * usb cable price")
    lookup = call("lookup", **CABLE_LOOKUP)
    squared = call("calculator", **SQUARED)
    output, notices, _ = await run([names, lookup, squared, lookup, "8.75"], CABLE)
    assert any("moved past" in n for n in notices) and output == "76.5625"
