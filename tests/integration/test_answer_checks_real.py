"""The chain checks on the real model (issue #12): steps joined by "and", and answers worked out without a tool."""

from __future__ import annotations

import statistics

import pytest

from agentcore import Agent
from agentcore.messages import ToolCall, ToolSpec
from agentcore.models.llamacpp import LlamaCppModel
from agentcore.result import RunResult
from agentcore.tools.builtin import builtin_toolset
from bench import toolbox

pytestmark = pytest.mark.real_model

PRICES = {"monitor": 215.0, "desk": 310.0}


def price(product: str) -> float:
    """Price of a product in dollars (monitor, desk)."""
    return PRICES[product.lower().strip()]


async def shop(model: LlamaCppModel, task: str, *, fetch_first: bool = True) -> RunResult[str]:
    """A run with the bench's lookup tables and calculator (read-only tools, so the loop may probe them)."""
    agent: Agent[None, str] = Agent(model, tools=toolbox.agent_tools(["lookup", "calculator"]))
    agent.fetch_first = fetch_first
    return await agent.run(task)


def miles_to_km(miles: float) -> float:
    """Convert miles to kilometers."""
    return round(miles * 1.609344, 6)


async def test_steps_joined_by_and_are_followed_to_the_end(qwen: LlamaCppModel) -> None:
    """Before "and" opened a step this model answered with the price alone (or its own product)."""
    agent: Agent[None, str] = Agent(qwen, tools=[price, builtin_toolset(["calculator"])])
    result = await agent.run("Look up the price of a monitor and multiply it by 4.")
    called = [step.call.name for step in result.steps if step.call is not None and not step.tool_error]
    assert called == ["price", "calculator"]
    assert "860" in str(result.output)


async def test_an_answer_worked_out_in_the_head_goes_back_for_a_tool(qwen: LlamaCppModel) -> None:
    """The model answered this from the task's numbers with no call; the check requires one."""
    agent: Agent[None, str] = Agent(qwen, tools=[miles_to_km, builtin_toolset(["calculator"])])
    result = await agent.run("A runner covers 5 miles each day. How many kilometers is that over 7 days?")
    notices = [e for e in result.trace if e["kind"] == "notice" and "no tool returned" in e["message"]]
    assert notices, "the first answer had no tool behind it and was not sent back"
    assert any(step.call is not None for step in result.steps)


async def test_a_key_copied_from_the_tool_description_runs_as_the_task_word(qwen: LlamaCppModel) -> None:
    """With the benchmark's lookup ("prices (product -> price in dollars)") this model called key="product".
    "desk" and "desk lamp" both work as keys; the widest runs in its place (agentcore.probe.chosen), where a
    notice naming "desk lamp" used to cost a turn."""
    agent: Agent[None, str] = Agent(qwen, tools=toolbox.agent_tools(["lookup"]))
    result = await agent.run("How much does a desk lamp cost, in dollars?")
    probed = [e for e in result.trace if e["kind"] == "notice" and "other word value" in e["message"]]
    assert probed and '"product"' in str(probed[0]["call"])
    assert [s.call.arguments["key"] for s in result.steps if s.call is not None] == ["desk lamp"]
    assert "32.4" in str(result.output)


async def test_the_tool_result_wins_over_an_answer_the_model_insists_on(qwen: LlamaCppModel) -> None:
    """The calculator said 1929; this model answered 25, and 25 again after the notice: the tool's number wins."""
    agent: Agent[None, str] = Agent(qwen, tools=[builtin_toolset(["calculator"])])
    result = await agent.run("What is 123456 / 64?")
    replaced = [e for e in result.trace if e["kind"] == "notice" and "replaced by the tool's result" in e["message"]]
    assert replaced and replaced[0]["result"] == "1929"
    assert str(result.output).strip() == "1929"


async def test_an_implicit_sum_gets_both_prices_and_adds_them(qwen: LlamaCppModel) -> None:
    """An implicit chain: nothing in "What do a pen and a notebook cost together?" says "look up, then add". This
    model looked up "product", then one item, and answered with that price or added it to itself; the checks name
    the other item (listed with "and") and the results still to combine, so the answer is the sum of both."""
    agent: Agent[None, str] = Agent(qwen, tools=toolbox.agent_tools(["lookup", "calculator"]))
    result = await agent.run("What do a pen and a notebook cost together?")
    looked_up = {step.call.arguments.get("key") for step in result.steps if step.call and not step.tool_error}
    assert {"pen", "notebook"} <= looked_up
    assert "4.7" in str(result.output)


async def test_miles_are_not_cut_to_metres_and_the_stale_step_gets_the_result(qwen: LlamaCppModel) -> None:
    """With the unit enum of the benchmark's unit_convert this model wrote "m" for miles (the grammar closed the
    string at the first complete value); it now writes "miles", read as "mi". It then multiplied the task's 5
    again, even after the notice spelled out the call on 8.04672: that call runs in its place."""
    agent: Agent[None, str] = Agent(qwen, tools=toolbox.agent_tools(["unit_convert", "calculator"]))
    result = await agent.run("A runner covers 5 miles each day. How many kilometers is that over 7 days?")
    ran = [step.call for step in result.steps if step.call is not None and not step.tool_error]
    assert ran[0].name == "unit_convert" and ran[0].arguments["from_unit"] == "mi"
    assert "56.327" in str(result.output)


async def test_a_lookup_in_the_wrong_table_runs_in_the_table_that_has_the_key(qwen: LlamaCppModel) -> None:
    """After the made-up-inputs notice this model looked "keyboard" up in the capitals table (the first listed),
    and gave up on the error. The table the task names ("total price": prices) now runs in its place before the
    call (agentcore.enum_named); before that rule, the failed call's probes of the other tables found the one
    with the key (agentcore.probe). Either way the model goes on to the mouse and the sum."""
    # With fetch_first off the made-up first call runs, and the answer check's notice leads to the wrong table.
    result = await shop(qwen, "What is the total price of one keyboard and one mouse?", fetch_first=False)
    fixes = ("other enum value", "the one the conversation names")
    fixed = [e for e in result.trace if e["kind"] == "notice" and any(f in e["message"] for f in fixes)]
    assert fixed and "capitals" in fixed[0]["call"]
    assert "65.85" in str(result.output)


async def test_a_made_up_first_call_is_taken_back_and_the_items_fetched(qwen: LlamaCppModel) -> None:
    """This model opens with `100 + 200` on invented prices (agentcore.fetch_first): the call never runs, the turn
    is asked again with only the lookup, and the sum is of the fetched prices."""
    result = await shop(qwen, "What is the total price of one keyboard and one mouse?")
    assert result.steps[0].result is not None and result.steps[0].result.startswith("not run:")
    assert not any("100 + 200" in (m.content or "") for m in result.messages)
    assert "65.85" in str(result.output)


async def test_an_expression_that_names_a_price_runs_with_the_price(qwen: LlamaCppModel) -> None:
    """This model writes `calculator("6 * (price of printer)")` before any lookup. It used to go on with
    `lookup(key="price of printer")`, which the word probe fixed a call later (agentcore.probe, unit-tested). The
    error names those words, lookup is read-only and only "printer" is a key, so the expression runs as
    `6 * (159)` at once (agentcore.named)."""
    result = await shop(qwen, "What is the price of a printer multiplied by 6?")
    named = [e for e in result.trace if e["kind"] == "notice" and "values its names stand for" in e["message"]]
    assert named and "price of printer" in named[0]["call"]
    ran = [step.call for step in result.steps if step.call is not None and not step.tool_error]
    assert ran[0] == ToolCall("calculator", {"expression": "6 * (159)"})
    assert "954" in str(result.output)


async def test_an_answer_with_one_of_two_items_goes_back_for_the_other(qwen: LlamaCppModel) -> None:
    """This model looked up the laptop and answered its price. lookup also takes "tablet", another word of the
    task that no call used (agentcore.probe.item_alternatives), so the answer goes back naming it. (The model
    then adds the two prices instead of subtracting: the operation is still its own.)"""
    result = await shop(qwen, "How much more does a laptop cost than a tablet?")
    named = [e for e in result.trace if e["kind"] == "notice" and e.get("words") == ["tablet"]]
    keys = [s.call.arguments.get("key") for s in result.steps if s.call is not None and s.call.name == "lookup"]
    assert named and "tablet" in keys and "laptop" in keys
    assert any(s.call.name == "calculator" for s in result.steps if s.call is not None and not s.tool_error)


def projectile_range(initial_velocity: float, angle: float) -> float:
    """Horizontal range of a projectile in metres, from its launch speed (m/s) and angle (degrees)."""
    import math

    return round(initial_velocity**2 * math.sin(math.radians(2 * angle)) / 9.81, 3)


async def test_a_call_with_made_up_numbers_does_not_run(qwen: LlamaCppModel) -> None:
    """Asked in symbols, the model called the tool with its own numbers (velocity 10, angle 45): held back, and
    the run ends with an answer, no call run. Given the numbers, the same tool runs at once."""
    agent: Agent[None, str] = Agent(qwen, tools=[projectile_range])
    vague = await agent.run("How far does a ball go when launched with velocity 'v' at an angle 'theta'?")
    held = [step for step in vague.steps if step.call is not None]
    assert held and all(step.tool_error and "given by no one" in (step.result or "") for step in held)
    assert vague.status == "completed" and vague.output
    given = await agent.run("How far does a ball go when launched at 20 m/s at an angle of 30 degrees?")
    ran = [step for step in given.steps if step.call is not None and not step.tool_error]
    assert [step.call.arguments for step in ran if step.call] == [{"initial_velocity": 20, "angle": 30}]


def get_current_weather(location: str, unit: str = "celsius") -> str:
    """The current weather in a place.

    Args:
        location: The city and state, e.g. San Francisco, CA
        unit: celsius or fahrenheit.
    """
    return f"18 degrees {unit} in {location}"


async def test_a_domain_name_is_not_taken_for_a_location(qwen: LlamaCppModel) -> None:
    """Offered only a weather tool and asked about a domain, this model called it with `location="paypal.com"`
    (BFCL live_irrelevance; "paypal.com, CA" since the grammar takes the documented city and state). The domain does
    not fit the argument: held back, and the run answers with no call
    run. Asked for the weather, the same tool runs at once."""
    agent: Agent[None, str] = Agent(qwen, tools=[get_current_weather])
    asked = await agent.run("On VirusTotal, show me the subdomains of the domain paypal.com.")
    calls = [step for step in asked.steps if step.call is not None]
    assert calls and all(step.tool_error for step in calls)
    assert "a domain name" in (calls[0].result or "")  # "paypal.com, CA": the grammar asks for a state too
    assert asked.status == "completed" and asked.output
    weather = await agent.run("What is the weather in Boston, MA?")
    ran = [step.call.arguments.get("location") for step in weather.steps if step.call and not step.tool_error]
    assert ran and "Boston" in str(ran[0])


async def test_a_city_the_docs_give_as_an_example_gets_its_state(qwen: LlamaCppModel) -> None:
    """The docs ask for "The city and state, e.g. Chicago, IL"; asked about Chicago this model wrote the city
    alone (BFCL simple_python_166). The call runs with the example's form (agentcore.formats)."""

    def find_lawyer(city: str, fee: int) -> str:
        """Lawyers near a city whose hourly fee is at most `fee`.

        Args:
            city: The city and state, e.g. Chicago, IL.
            fee: The highest hourly fee, in dollars.
        """
        return f"2 lawyers in {city} under ${fee}"

    agent: Agent[None, str] = Agent(qwen, tools=[find_lawyer])
    result = await agent.run("Find a lawyer in Chicago who charges less than 400 dollars per hour.")
    ran = [step.call.arguments["city"] for step in result.steps if step.call and not step.tool_error]
    assert ran and ran[0] == "Chicago, IL"


async def test_a_choice_the_docs_list_is_the_only_value_written(qwen: LlamaCppModel) -> None:
    """The docs say "Can be 'summary' or 'detailed'"; this model wrote `detail_level="full"` (BFCL multiple_148),
    and the loop held the call back as a value no one gave. The grammar now writes one of the docs' choices
    (agentcore.doc_choices), so the call runs."""

    def get_stock_info(company_name: str, detail_level: str) -> str:
        """Stock information of a company.

        Args:
            company_name: The name of the company.
            detail_level: Level of detail for stock information. Can be 'summary' or 'detailed'.
        """
        return f"{company_name}: {detail_level} information"

    agent: Agent[None, str] = Agent(qwen, tools=[get_stock_info])
    result = await agent.run("Give me detail information about stocks of Apple Inc.")
    ran = [step.call.arguments for step in result.steps if step.call and not step.tool_error]
    assert ran and ran[0]["detail_level"] in ("summary", "detailed")


def predict_profit(investment_amount: float, annual_return: float, years: int) -> str:
    """The profit of an investment.

    Args:
        investment_amount: The amount invested, in dollars.
        annual_return: The annual return rate of the investment.
        years: How many years it is held.
    """
    return f"{investment_amount * ((1 + annual_return) ** years - 1):.2f}"


async def test_a_percentage_goes_into_a_rate_as_a_fraction(qwen: LlamaCppModel) -> None:
    """BFCL simple_python_134: this model wrote annual_return=7 for "7%"; the call runs with 0.07
    (agentcore.rates), and the answer is the profit at 7%."""
    agent: Agent[None, str] = Agent(qwen, tools=[predict_profit])
    result = await agent.run("What is the profit of investing $5000 for 5 years at an annual return of 7%?")
    ran = [step.call.arguments for step in result.steps if step.call and not step.tool_error]
    assert ran and ran[0]["annual_return"] == 0.07
    assert "2012.76" in str(result.output)


def _spec(name: str, description: str, **params: tuple[str, str]) -> ToolSpec:
    """A BFCL-style tool: every parameter required, `params` as name=(JSON type, description)."""
    note = " Note that the provided function is in Python 3 syntax."
    properties = {key: {"type": kind, "description": doc} for key, (kind, doc) in params.items()}
    return ToolSpec(name, description + note, {"type": "object", "properties": properties, "required": list(params)})


class _Canned:
    """The four tools of BFCL multiple_158; each call returns a canned line."""

    specs = (
        _spec("publication_year.find", "Fetches the year a particular scientific work was published.",
              author=("string", "Name of the author of the work."), work_title=("string", "Title of the work.")),
        _spec("portfolio_future_value", "Calculate the future value of an investment in a specific stock.",
              stock=("string", "The ticker symbol of the stock."), years=("integer", "The number of years.")),
        _spec("religious_history.get_papal_biography",
              "Retrieve the biography and main religious and historical contributions of a Pope based on his papal"
              " name.", papal_name=("string", "The papal name of the Pope."),
              include_contributions=("boolean", "Include main contributions of the Pope in the response if true.")),
        _spec("board_game_info", "Get the information about a board game from a database.",
              game_name=("string", "Name of the board game.")),
    )  # fmt: skip

    async def list_tools(self) -> tuple[ToolSpec, ...]:
        return self.specs

    async def call_tool(self, name: str, arguments: dict[str, object], ctx: object) -> str:
        return f"{arguments.get('papal_name')}: pope 1198-1216, called the Fourth Lateran Council."

    def tool_settings(self, name: str) -> tuple[float | None, int]:
        return None, 0


async def test_an_answer_from_memory_goes_back_for_the_tool_the_task_describes(qwen: LlamaCppModel) -> None:
    """BFCL multiple_158: this model answered "the biography and main contributions of Pope Innocent III" from
    memory (a made-up birth date). The papal tool's docs share those words, so the answer goes back and that tool
    runs (agentcore.tool_fit)."""
    agent: Agent[None, str] = Agent(qwen, tools=_Canned())
    result = await agent.run("Get the biography and main contributions of Pope Innocent III.")
    notices = [e for e in result.trace if e["kind"] == "notice" and "from memory" in e["message"]]
    assert notices, "the model called a tool at once: this test no longer exercises the check"
    ran = [step.call.name for step in result.steps if step.call and not step.tool_error]
    assert ran and ran[0] == "religious_history.get_papal_biography"


def convert_currency(amount: float, from_currency: str, to_currency: str) -> str:
    """Converts a given amount of money from one currency to another.

    Args:
        amount: The amount of money to convert
        from_currency: The current currency of the money
        to_currency: The desired currency of the money
    """
    return f"{amount} {from_currency} in {to_currency}"


def item_value(name: str) -> str:
    """Value of an item in dollars.

    Args:
        name: The item.
    """
    return {"office desk": "310"}.get(name.lower().strip(), "unknown item")


async def test_a_call_no_word_of_the_task_is_about_is_held_back_and_a_needed_one_runs_when_made_again(
    qwen: LlamaCppModel,
) -> None:
    """BFCL irrelevance_216: offered only `convert_currency` and asked for the closest Italian restaurant, this
    model called `convert_currency(amount=100, from_currency="€", to_currency="it")`. No word of the task is
    about the tool: held back once, and the model answers with no call run. A tool the task needs but shares no
    word with (`item_value` for "what does the office desk cost") is held back too, and runs when called again."""
    agent: Agent[None, str] = Agent(qwen, tools=[convert_currency])
    lost = await agent.run("Where is the closest Italian restaurant?")
    assert lost.status == "completed" and lost.output
    assert not [step for step in lost.steps if step.call is not None and not step.tool_error]
    needed = await Agent(qwen, tools=[item_value]).run("What does the office desk cost?")
    ran = [step.result for step in needed.steps if step.call is not None and not step.tool_error]
    assert ran == ["310"] and "310" in str(needed.output)


async def test_a_step_that_names_an_item_not_fetched_gets_it_first(qwen: LlamaCppModel) -> None:
    """Told "the results to use are 32.4 and 97.2" for "add the price of a usb cable", this model added them; the
    step now asks for the usb cable first, with the lookup required (compose dev m19)."""
    result = await shop(qwen, "Look up the price of a desk lamp, multiply it by 3, and add the price of a usb cable.")
    keys = [s.call.arguments.get("key") for s in result.steps if s.call is not None and s.call.name == "lookup"]
    assert "usb cable" in keys
    assert "105.95" in str(result.output)


async def test_an_answer_that_restates_the_tasks_number_gets_the_result(qwen: LlamaCppModel) -> None:
    """After `5 * 2.7432` = 13.716 this model answered "5.0" (a number of the task); sent back, it said "5.0"
    again, and the last result is written in (dev probe z05)."""
    agent: Agent[None, str] = Agent(qwen, tools=toolbox.agent_tools(["unit_convert", "calculator"]))
    result = await agent.run("A pipe is 9 feet long. How many meters are 5 such pipes?")
    assert any(e["kind"] == "notice" and "restates the task's numbers" in e["message"] for e in result.trace)
    assert "13.716" in str(result.output)


async def test_a_miscounted_run_of_the_quoted_words_is_counted_as_quoted(qwen: LlamaCppModel) -> None:
    """This model gave word_count the quote with one "la" lost (dev probe k07)."""
    agent: Agent[None, str] = Agent(qwen, tools=toolbox.agent_tools(["word_count"]))
    result = await agent.run("How many words are in 'la la la la la la la la la la la la bye'?")
    assert result.steps[0].call is not None
    assert result.steps[0].call.arguments["text"] == "la la la la la la la la la la la la bye"
    assert str(result.output).strip() == "13"


async def convert(model: LlamaCppModel, task: str) -> RunResult[str]:
    agent: Agent[None, str] = Agent(model, tools=toolbox.agent_tools(["unit_convert", "calculator"]))
    return await agent.run(task)


async def test_a_conversion_runs_between_the_units_the_task_names(qwen: LlamaCppModel) -> None:
    """This model called unit_convert(5, "l", "mi"); the task names liters and milliliters (agentcore.unit_names)."""
    result = await convert(qwen, "A bucket holds 5 liters. How many milliliters do 3 buckets hold?")
    conversions = [s.call.arguments for s in result.steps if s.call is not None and s.call.name == "unit_convert"]
    assert conversions and (conversions[0]["from_unit"], conversions[0]["to_unit"]) == ("l", "ml")
    assert "15000" in str(result.output)


async def test_a_third_step_in_another_unit_is_not_dropped(qwen: LlamaCppModel) -> None:
    """This model answered 2350 (meters) for "express the sum in miles"; the answer goes back with the conversion
    written out, and the final number needs all three steps."""
    result = await convert(qwen, "Convert 2 kilometers to meters, add 350, and express the sum in miles.")
    notices = [e for e in result.trace if e["kind"] == "notice" and "conversion" in e["message"]]
    assert notices, "the answer in meters was not sent back"
    assert "1.460222" in str(result.output)


async def test_a_whole_phrase_given_to_the_calculator_runs_as_the_expression_it_means(qwen: LlamaCppModel) -> None:
    """This model called calculator("Subtract 30 from the price of a printer") (compose11's j04): it runs as
    `(159) - 30` (agentcore.named, agentcore.phrasing)."""
    result = await shop(qwen, "Subtract 30 from the price of a printer.")
    ran = [s.call.arguments for s in result.steps if s.call is not None and s.call.name == "calculator"]
    assert {"expression": "(159) - 30"} in ran
    assert str(result.output).strip() == "129"


async def test_one_made_up_price_goes_back_for_the_items_the_lookup_has(qwen: LlamaCppModel) -> None:
    """This model answered `3 + 2 * 5` for "3 notebooks and 2 pens" (compose11's j07): one number from nowhere,
    while the lookup has both items (agentcore.unfetched). The final number needs both prices and both counts."""
    result = await shop(qwen, "What do 3 notebooks and 2 pens cost in total?", fetch_first=False)
    assert any(e["kind"] == "notice" and "made-up inputs" in str(e["message"]) for e in result.trace)
    assert "12.9" in str(result.output)


async def test_a_made_up_price_after_the_first_lookup_is_taken_back_too(qwen: LlamaCppModel) -> None:
    """With fetch_first, j07's `3 + 2 * 5` is taken back, the notebooks looked up, and then this model wrote
    `3.5 + 2 * 100` with the pens still unfetched: that call is taken back as well. From a cold KV cache: after
    the other tests' prompts the greedy path differs (one run added a made-up 5.7 after both lookups)."""
    qwen.reset_kv()
    result = await shop(qwen, "What do 3 notebooks and 2 pens cost in total?")
    held = [s for s in result.steps if (s.result or "").startswith("not run:") and "made up" in (s.result or "")]
    assert len(held) == 2 and "12.9" in str(result.output)


async def test_a_part_of_the_price_goes_back_for_the_addition_the_task_names(qwen: LlamaCppModel) -> None:
    """This model answered 107.5 (`215 / 2`) for "add half of that price to it" (compose12's e14): the part goes
    back with the sum written out (agentcore.portions), and the final number needs the whole and the part."""
    result = await shop(qwen, "Take the price of a monitor and add half of that price to it.")
    assert any(e["kind"] == "notice" and "a part of a value" in str(e["message"]) for e in result.trace)
    assert "322.5" in str(result.output)


async def test_a_line_the_conversion_started_again_is_redone_on_the_converted_weight(qwen: LlamaCppModel) -> None:
    """This model multiplied 3 * 5 before converting the 3 pounds, then took 15 on (compose12's e06): the call on
    15 is held back and the line redone on 1.360777 kilograms (agentcore.loop_checks.made_up_result_call)."""
    result = await convert(qwen, "Multiply the weight of 3 pounds in kilograms by 5.")
    assert "6.803885" in str(result.output)


async def test_a_price_the_task_squares_goes_back_for_its_square(qwen: LlamaCppModel) -> None:
    """This model answered the mouse's price, 19.95, for "the square of the price" (compose13's b14), then wrote
    "39.9025" as the expression: the price goes back with `19.95 * 19.95` written out, and that call runs
    (agentcore.powers)."""
    result = await shop(qwen, "What is the square of the price of a mouse?", fetch_first=False)  # `2 * 3` runs
    assert any(e["kind"] == "notice" and "to a power" in str(e["message"]) for e in result.trace)
    assert "398.0025" in str(result.output)


async def test_a_count_still_to_use_after_the_tools_number_replaced_the_models(qwen: LlamaCppModel) -> None:
    """This model answered 100 twice for "How many pounds do 5 parcels weigh?" (compose13's b17); the converted
    4.409245 that replaced it was accepted, with the 5 parcels unused. It is read as an answer now."""
    result = await convert(qwen, "A parcel weighs 2 kilograms. How many pounds do 5 parcels weigh?")
    assert "22.046225" in str(result.output)


async def test_a_square_done_again_in_the_head_gives_way_to_the_square(qwen: LlamaCppModel) -> None:
    """This model ran `64 * 64` = 4096 for "a webcam's price multiplied by itself", then answered 262144
    (`4096 * 64`, compose28's ai15): an answer that does the complete calculation again on its own result gives
    way to that result (agentcore.done_again)."""
    result = await shop(qwen, "What is a webcam's price multiplied by itself?")
    assert "4096" in str(result.output) and "262144" not in str(result.output)


async def test_a_failed_expression_written_again_runs_with_the_prices_since(qwen: LlamaCppModel) -> None:
    """This model opened with `price - priceInBackpack`, looked up both prices, and wrote the same failed
    expression again (compose28's ai09): it runs with the prices written in (agentcore.stand_ins)."""
    result = await shop(qwen, "By how much does a chair's price exceed a backpack's?")
    assert "35.5" in str(result.output)


async def test_a_conversion_called_again_after_the_unfinished_notice_hears_the_number_still_to_use(
    qwen: LlamaCppModel,
) -> None:
    """This model converted 4 pounds to grams, answered the grams, called the conversion again after the
    unfinished notice, and answered the grams again (compose31's al06): the repeat notice names the 8."""
    result = await convert(qwen, "4 pounds written in grams, divided by 8?")
    assert "226.796185" in str(result.output)


async def test_a_price_answered_after_the_calculation_that_took_it_gives_way(qwen: LlamaCppModel) -> None:
    """This model squared the cable's price from its names, looked the price up, repeated both calls and answered
    the price (compose31's al15): the calculation that took it answers (agentcore.moved_past)."""
    result = await shop(qwen, "What is a usb cable's price times the same usb cable price?")
    assert "76.5625" in str(result.output)


async def test_units_written_into_the_arithmetic_run_as_the_conversion_they_stand_for(qwen: LlamaCppModel) -> None:
    """This model wrote `25 liters * 4` to the calculator, then a longer expression of the same words, and
    answered with the words once only a final answer was allowed (compose30's ak06): the failed call runs as the
    conversion the task names (agentcore.conversions), and the model goes on from its result."""
    result = await convert(qwen, "25 liters converted to gallons, times 4?")
    assert "26.417204" in str(result.output)


async def test_a_failed_sum_repeated_before_the_second_item_sends_the_model_for_it(qwen: LlamaCppModel) -> None:
    """This model looked up the laptops, wrote `2 + 3 * 899**` twice and answered the laptop's price (compose28's
    ai07): the dangling operator is cut, a repeated failure sends the model for the mice, and "mice" is looked
    up as "mouse" (agentcore.probe, agentcore.lemmas)."""
    result = await shop(qwen, "What do 2 laptops and 3 mice cost all together?")
    assert "1857.85" in str(result.output)


async def test_an_answer_that_writes_its_own_calculation_gives_way_to_the_tools(qwen: LlamaCppModel) -> None:
    """This model answered "6 * 0.00033 / 1000 = 0.00033 liters" after being shown `0.33 / 1000`, the loop's own
    rewrite of its `330 / 1000` (compose32's am17): no call with a number from nowhere is written out, and an
    insisted calculation of its own gives way to the tool's result."""
    result = await convert(qwen, "A soda can holds 330 milliliters. How many liters do 6 such cans hold?")
    assert "1.98" in str(result.output)


async def test_a_spelled_count_reaches_the_model_as_digits(qwen: LlamaCppModel) -> None:
    """independent1's ar13 (an author who saw no code): "two chairs" had been priced as one chair; in digits the
    model and the checks count it (agentcore.number_words)."""
    result = await shop(qwen, "How much for two chairs and a desk?")
    assert result.task == "How much for two chairs and a desk?"
    assert "410" in str(result.output)


async def test_an_amount_knocked_off_is_subtracted(qwen: LlamaCppModel) -> None:
    """independent1's ar05: `159 + 35` for "knock the $35 deposit ... off its price" (agentcore.operand_order)."""
    result = await shop(qwen, "Look up the printer and knock the $35 deposit I already paid off its price.")
    assert "124" in str(result.output)


async def test_a_rate_times_the_nights(qwen: LlamaCppModel) -> None:
    """independent1's ar15: `95 + 7` for 7 nights at "$95 a night" (agentcore.rate_sums), and the check-out date
    answered after the product had been replaced by the nights (answer_checks._carried_on)."""
    agent: Agent[None, str] = Agent(qwen, tools=toolbox.agent_tools(["date_diff", "calculator"]))
    task = "Booked a hotel room: check-in 2024-08-12, check-out 2024-08-19, $95 a night. What will the room come to?"
    result = await agent.run(task)
    assert "665" in str(result.output)


LOGGED: list[dict[str, int]] = []


def log_triangle(a: int, b: int) -> str:
    """Log a right triangle with legs a and b to the geometry notebook."""
    LOGGED.append({"a": a, "b": b})
    return "logged"


async def test_one_action_asked_for_two_pairs_of_numbers_is_done_for_both(qwen: LlamaCppModel) -> None:
    """An action's result is a status ("logged"), not a value to go on with: the numbers no call took are the same
    action's again (agentcore.again). Before, told to go on "with logged and 5 and 12", this model answered."""
    LOGGED.clear()
    agent: Agent[None, str] = Agent(qwen, tools=[log_triangle])
    result = await agent.run("Log two right triangles in the notebook: legs 3 and 4, and legs 5 and 12.")
    assert {"a": 3, "b": 4} in LOGGED and {"a": 5, "b": 12} in LOGGED
    assert result.output is not None


def stats_median(data: list[float]) -> str:
    """The median of a list of numbers."""
    return str(statistics.median(data))


def stats_variance(data: list[float]) -> str:
    """The sample variance of a list of numbers."""
    return str(round(statistics.variance(data), 4))


def stats_mode(data: list[float]) -> str:
    """The most common value of a list of numbers."""
    return str(statistics.mode(data))


async def test_each_action_the_task_names_runs_on_the_same_data(qwen: LlamaCppModel) -> None:
    """BFCL parallel_multiple_20: "the median and variance ..., also the mode" answered after the median alone
    (agentcore.named_rest); each call on the same data is an action of its own, not a chain's stale input."""
    agent: Agent[None, str] = Agent(qwen, tools=[stats_median, stats_variance, stats_mode])
    result = await agent.run("Determine the median and variance of 3,4,5,2,8,5. Also determine the mode of them.")
    called = [step.call.name for step in result.steps if step.call is not None and not step.tool_error]
    assert {"stats_median", "stats_variance", "stats_mode"} <= set(called)
