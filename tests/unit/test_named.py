"""Names where values belong: `calculator("6 * (price of laptop)")` runs with the price (agentcore.named)."""

from __future__ import annotations

import ast
import operator
from typing import Literal

from agentcore import Agent
from agentcore.messages import ToolCall
from agentcore.named import in_task, known_value, lookups, named_runs
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import make_tool

TABLES = {"capitals": {"japan": "Tokyo"}, "prices": {"laptop": "899", "pen": "1.2", "desk lamp": "32.4"}}
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def lookup(table: Literal["capitals", "prices"], key: str) -> str:
    """Look a key up in a table."""
    if key not in TABLES[table]:
        raise ValueError(f"no {key!r} in {table}")
    return TABLES[table][key]


def calculator(expression: str) -> str:
    """Evaluate arithmetic."""

    def value(node: ast.expr) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        if isinstance(node, ast.Name):
            raise ValueError(f"unknown name {node.id!r}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            raise ValueError(f"unknown function {node.func.id!r}")
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        raise ValueError(f"cannot parse {expression!r} as arithmetic")

    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise ValueError(f"cannot parse {expression!r} as arithmetic") from None
    return f"{value(tree.body):g}"


LOOKUP, CALC = make_tool(lookup, read_only=True), make_tool(calculator, read_only=True)


def test_named_runs_are_the_word_runs_of_an_expression() -> None:
    assert named_runs("6 * (price of laptop)") == ["price of laptop"]
    assert named_runs("laptop price - desk price") == ["laptop price", "desk price"]  # " - " is an operator
    assert named_runs("price of laptop") == []  # words only: the word probe's case, not an expression
    assert named_runs("2 * 3") == [] and named_runs(12) == []
    assert named_runs("5 * of the") == []  # no content word
    assert named_runs("8 * price_of_laptop") == ["price_of_laptop"]  # identifiers, as the model writes them
    assert named_runs("price(laptop) - price(desk lamp)") == ["price(laptop)", "price(desk lamp)"]


def test_a_known_value_is_the_result_of_the_longest_word_value_the_run_contains() -> None:
    lamp = (ToolCall("lookup", {"table": "prices", "key": "desk lamp"}), LOOKUP.spec(), "32.4")
    pen = (ToolCall("lookup", {"table": "prices", "key": "pen"}), LOOKUP.spec(), "1.2")
    tokyo = (ToolCall("lookup", {"table": "capitals", "key": "japan"}), LOOKUP.spec(), "Tokyo")
    assert known_value("desk lamp price", [pen, lamp]) == "32.4"
    assert known_value("pen", [pen, lamp]) == "1.2"
    assert known_value("japan", [tokyo]) is None  # not a number
    assert known_value("chair", [pen, lamp]) is None
    other_pen = (pen[0], pen[1], "2.5")
    assert known_value("pen", [pen, other_pen]) is None  # two answers: ambiguous


def test_lookups_try_the_runs_words_in_earlier_calls_else_in_every_fitting_tool() -> None:
    earlier = [(ToolCall("lookup", {"table": "prices", "key": "pen"}), LOOKUP.spec(), "1.2")]
    tried = lookups("price of laptop", [LOOKUP.spec(), CALC.spec()], earlier, "calculator")
    assert ToolCall("lookup", {"table": "prices", "key": "laptop"}) in tried
    assert all(c.arguments["table"] == "prices" for c in tried)
    fresh = lookups("price of laptop", [LOOKUP.spec(), CALC.spec()], [], "calculator")
    assert ToolCall("lookup", {"table": "capitals", "key": "laptop"}) in fresh and len(fresh) == 6
    assert lookups("laptop", [make_tool(lookup).spec()], []) == []  # side effects possible: never probed


async def test_an_expression_naming_an_earlier_result_runs_with_its_value() -> None:
    model = ScriptedModel(
        [call("lookup", table="prices", key="laptop"), call("calculator", expression="3 * laptop price"), "2697"]
    )
    result = await Agent(model, tools=[LOOKUP, CALC]).run("What do 3 laptops cost?")
    ran = [(s.call, s.result, s.tool_error) for s in result.steps if s.call is not None]
    assert ran[-1] == (ToolCall("calculator", {"expression": "3 * 899"}), "2697", False)
    assert model.requests[-1].messages[-2].content == '{"tool": "calculator", "arguments": {"expression": "3 * 899"}}'
    assert any(e["kind"] == "notice" and "values its names stand for" in e["message"] for e in result.trace)


async def test_a_name_never_looked_up_is_probed_and_ambiguous_or_unknown_names_change_nothing() -> None:
    model = ScriptedModel([call("calculator", expression="2 * (price of desk lamp)"), "64.8"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("Two desk lamps: what do they cost?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "2 * (32.4)"})
    for expression in ["2 * price of chair", "pen price - laptop"]:
        model = ScriptedModel([call("calculator", expression=expression), "no"])
        result = await Agent(model, tools=[LOOKUP, CALC]).run("What is it?")
        steps = [s for s in result.steps if s.call]
        if expression == "pen price - laptop":  # both names resolve: this one runs
            assert steps[-1].call == ToolCall("calculator", {"expression": "1.2 - 899"})
        else:
            assert steps[-1].tool_error and steps[-1].call == ToolCall("calculator", {"expression": expression})


async def test_an_english_phrase_for_the_whole_expression_is_read_as_the_expression_it_means() -> None:
    """compose11's j04: `calculator("Subtract 30 from the price of a printer")`, before and after the lookup."""
    task = "Subtract 2 from the price of a laptop."
    model = ScriptedModel([call("calculator", expression="Subtract 2 from the price of a laptop."), "897"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run(task)
    expected = (ToolCall("calculator", {"expression": "(899) - 2"}), "897", False)
    assert [(s.call, s.result, s.tool_error) for s in result.steps if s.call] == [expected]
    turns = [call("lookup", table="prices", key="laptop"), call("calculator", expression="2 less than the laptop")]
    model = ScriptedModel([*turns, "897"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run(task)
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "(899) - 2"})


async def test_an_error_that_quotes_only_the_name_is_enough_and_one_that_quotes_nothing_is_not() -> None:
    model = ScriptedModel([call("lookup", table="prices", key="pen"), call("calculator", expression="4 * pen"), "4.8"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("What do 4 pens cost?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "4 * 1.2"})

    def quiet(expression: str) -> str:
        """Evaluate arithmetic."""
        raise ValueError("bad input")

    # Two values fetched, so the name is no stand-in for the one result (agentcore.stand_ins) before the call runs.
    script = [call("lookup", table="prices", key="pen"), call("lookup", table="prices", key="laptop")]
    model = ScriptedModel([*script, call("quiet", expression="4 * pen"), "no"])
    result = await Agent(model, tools=[LOOKUP, make_tool(quiet, read_only=True)]).run("What do 4 pens cost?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("quiet", {"expression": "4 * pen"})


async def test_identifiers_and_function_forms_name_values_too() -> None:
    model = ScriptedModel([call("calculator", expression="2 * price_of_desk_lamp"), "64.8"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("Two desk lamps: what do they cost?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "2 * 32.4"})
    model = ScriptedModel([call("calculator", expression="price(laptop) - price(pen)"), *["897.8"] * 4])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("How much more is a laptop than a pen?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "899 - 1.2"})


def test_in_task_reads_what_a_bare_name_is_of() -> None:
    assert in_task("price", "What is the price of a laptop minus 29?") == ["price of laptop minus"]
    assert in_task("price", "A case costs a quarter of the laptop's price.") == ["the laptop price"]
    assert in_task("price", "Look up the price of a desk lamp, multiply it by 3") == ["price of desk lamp"]
    assert in_task("price", "What does it cost?") == [] and in_task("12", "price of 12") == []


async def test_a_bare_name_resolves_through_the_tasks_phrase_and_stays_an_error_without_one() -> None:
    model = ScriptedModel([call("calculator", expression="price - 29"), "870"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("What is the price of a laptop minus 29?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "899 - 29"})
    model = ScriptedModel([call("calculator", expression="price - 29"), "no"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("What is it minus 29?")
    steps = [s for s in result.steps if s.call]
    assert steps[-1].tool_error and steps[-1].call == ToolCall("calculator", {"expression": "price - 29"})


async def test_resolved_names_run_in_the_tasks_order() -> None:
    """compose26's ag04: "cut by 29" written `29 * tablet price` ran as the product once the name resolved."""
    model = ScriptedModel([call("calculator", expression="29 * laptop price"), "870"])
    result = await Agent(model, tools=[LOOKUP, CALC]).run("A laptop's price, cut by 29?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "899 - 29"})
    assert result.steps[0].result == "870"


async def test_of_nested_names_that_all_resolve_the_widest_stands() -> None:
    """compose34's ao04: "3 * desk lamp price", where "desk" and "desk lamp" are both keys."""

    def shop(key: str) -> str:
        """The price of an item."""
        prices = {"desk": "240", "desk lamp": "32.4", "pen": "1.2", "laptop": "899"}
        if key not in prices:
            raise ValueError(f"no {key!r}")
        return prices[key]

    tools = [make_tool(shop, read_only=True), CALC]
    model = ScriptedModel([call("calculator", expression="3 * desk lamp price"), "97.2"])
    result = await Agent(model, tools=tools).run("Desk lamp price multiplied by 3?")
    assert [s.call for s in result.steps if s.call][-1] == ToolCall("calculator", {"expression": "3 * 32.4"})
    model = ScriptedModel([call("calculator", expression="3 * pen laptop"), "no"])  # not nested: ambiguous
    result = await Agent(model, tools=tools).run("What is it?")
    assert [s for s in result.steps if s.call][-1].tool_error
