"""An earlier call, its text or a name written into arithmetic in place of its result (agentcore.stand_ins)."""

from __future__ import annotations

import pytest
from arithmetic_tools import calculator

from agentcore.agent import Agent
from agentcore.stand_ins import names_for_results, with_results
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

WEBCAM = [("lookup", {"table": "prices", "key": "webcam"}, "64")]
DAYS = [("date_diff", {"start": "2024-07-04", "end": "2024-09-01"}, "59")]
MUGS = [("lookup", {"table": "prices", "key": "coffee mugs"}, "7.25")]
PROVERB = "a journey of a thousand miles begins with a single step"


@pytest.mark.parametrize(
    ("expression", "earlier", "fixed"),
    [
        ("price + (price / 2)", WEBCAM, "64 + (64 / 2)"),
        ("D * D - D", [("date_diff", {"start": "2024-04-01", "end": "2024-05-15"}, "44")], "44 * 44 - 44"),
        ("date_diff(2024-06-01, 2024-06-02) * 86400", [("date_diff", {"start": "a", "end": "b"}, "1")], "1 * 86400"),
        (f"{PROVERB} * 2 ** 2", [("word_count", {"text": PROVERB}, "11")], "11 * 2 ** 2"),
        ("price_a + price_b", WEBCAM, "price_a + price_b"),  # two names for one value: which is which is unclear
        ("price * 2", [*WEBCAM, ("lookup", {"key": "desk"}, "240")], "price * 2"),  # two values fetched
        ("price - price", [("lookup", {"key": "printer"}, "159"), *WEBCAM], "159 - 64"),  # one each, as fetched
        ("price - price - price", [("lookup", {"key": "printer"}, "159"), *WEBCAM], "price - price - price"),
        ("6 x 7 + pi", WEBCAM, "6 x 7 + pi"),  # read by the calculator itself
        ("64 + 20", [("calculator", {"expression": "64 + 20"}, "84")], "64 + 20"),  # its own input: stale check's
        ("2024-07-04 + 2024-09-01", DAYS, "59"),  # its two dates joined by an operator, in either order
        ("(2024-09-01 - 2024-07-04) * 2", DAYS, "(59) * 2"),
        ("2024-07-04 * 2", DAYS, "2024-07-04 * 2"),  # one date alone stands for nothing
        ("price", WEBCAM, "price"),  # no arithmetic
        ("price * 2", [("lookup", {"key": "webcam"}, "webcam: 64 dollars")], "price * 2"),  # no bare number
        # compose25's af07: the counted text is that many of it; the other item's name is no stand-in for it
        ("4 coffee mugs + 2 backpacks * 100", MUGS, "4 * 7.25 + 2 backpacks * 100"),
        ("coffee mugs * 4", MUGS, "7.25 * 4"),
        ("price * 4 + 7.25", WEBCAM, "64 * 4 + 7.25"),  # the fetched 64 is not written: the name stands for it
    ],
)
def test_with_results(expression: str, earlier: list[tuple[str, dict[str, str], str]], fixed: str) -> None:
    assert with_results(expression, "calculator", earlier) == fixed


@tool(read_only=True)
def lookup(key: str) -> str:
    """Look up a product's price."""
    return {"webcam": "64"}[key]


async def test_a_name_for_the_fetched_value_runs_as_that_value() -> None:
    model = ScriptedModel([call("lookup", key="webcam"), call("calculator", expression="price + (price / 2)"), "96"])
    result = await Agent(model, tools=[lookup, calculator]).run("What is the price of a webcam plus half of it?")
    assert result.output == "96"
    assert result.steps[1].call is not None and result.steps[1].call.arguments["expression"] == "64 + (64 / 2)"
    assert result.steps[1].result == "96"


CHAIR_BACKPACK = [({"table": "prices", "key": "chair"}, "85"), ({"table": "prices", "key": "backpack"}, "49.5")]


@pytest.mark.parametrize(
    ("expression", "fetched", "written"),
    [
        ("price - priceInBackpack", CHAIR_BACKPACK, "85 - 49.5"),  # compose28's ai09: the backpack's name first
        ("backpack_cost - price", CHAIR_BACKPACK, "49.5 - 85"),  # as written: the direction is another check's
        ("price - price_in_dollars", CHAIR_BACKPACK, "85 - 49.5"),  # compose20's aa09: in the order fetched
        ("price + x", CHAIR_BACKPACK[:1], "85 + x"),  # x is the calculator's multiplication sign
        ("a - b - c", CHAIR_BACKPACK, None),  # a name more than the numbers
        ("a * 2", CHAIR_BACKPACK, None),  # a number more than the names
        ("chair_price - chair_tax", CHAIR_BACKPACK, "85 - 49.5"),  # two names for one item: the order decides
        ("price - price in dollars", CHAIR_BACKPACK, "85 - 49.5"),  # compose30's ak09: a run of words is one name
        ("Monitor", CHAIR_BACKPACK[:1], None),  # a lookup's key written again, not arithmetic
        ("change ** 2", [({"key": "a b"}, "-3")], "(-3) ** 2"),  # -3 ** 2 would be -9
    ],
)
def test_names_for_results(expression: str, fetched: list[tuple[dict[str, str], str]], written: str | None) -> None:
    assert names_for_results(expression, fetched) == written


def test_words_describing_a_result_go() -> None:
    """independent8's ca07: the lookup's docs ("price in dollars") copied after the price."""
    lamp = [("lookup", {"table": "prices", "key": "desk lamp"}, "32.4")]
    assert with_results("6 * 32.4 price in dollars", "calculator", lamp) == "6 * 32.4"
    assert with_results("(32.4 dollars + 2) * 6", "calculator", lamp) == "(32.4 + 2) * 6"
    kept = "6 * 32 price in dollars"  # 32 was not returned: the words stay, and the calculator says so
    assert with_results(kept, "calculator", lamp) is kept


def test_words_after_a_result_in_a_text_stay() -> None:
    text = "top 10 hiking trails - e-bike"
    assert with_results(text, "search", [("count", {"what": "trails"}, "10")]) is text
