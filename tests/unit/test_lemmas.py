"""Word forms that differ by more than an ending (agentcore.lemmas), read by `grounding.mentions` and the probes."""

from __future__ import annotations

from arithmetic_tools import calculator

from agentcore import Agent
from agentcore.grounding import mentions
from agentcore.lemmas import irregular, same_word
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.unfetched import task_words

PRICES = {"usb cable": "8.75", "mouse": "19.95"}


@tool(read_only=True)
def lookup(key: str) -> str:
    """Look up a product's price in dollars."""
    if key.removesuffix("s") not in PRICES:
        raise ValueError(f"no {key!r}; keys: {', '.join(PRICES)}")
    return PRICES[key.removesuffix("s")]


def test_irregular_plurals_are_the_same_word_and_other_words_are_not() -> None:
    assert same_word("mice", "mouse") and same_word("Teeth", "tooth") and same_word("children", "child")
    assert not same_word("better", "good")  # one lemma, but a verb form or comparative: the first letter differs
    assert not same_word("mouse", "house")


def test_irregular_names_only_what_dropping_an_s_would_miss() -> None:
    assert irregular("mice") == "mouse"
    assert irregular("batteries") == "battery"
    assert irregular("cables") is None and irregular("mouse") is None


def test_mentions_reads_any_form_of_each_word() -> None:
    assert mentions("lookup mouse 19.95", "mice")
    assert mentions("What do 2 mice cost?", "mouse")
    assert mentions("two wireless mice", "wireless mouse")
    assert not mentions("a wireless keyboard", "wireless mouse")


def test_the_probes_try_the_lemma_after_the_word() -> None:
    words = task_words("What do 5 usb cables and 2 mice cost altogether?")
    assert words.index("mouse") == words.index("mice") + 1
    assert "cable" not in words  # a plain plural: the tools drop the "s" themselves


async def test_a_made_up_sum_names_the_item_by_its_lemma_and_a_fetched_lemma_uses_the_tasks_word() -> None:
    """compose19's a07: "mice" is never a key; "mouse" is, and fetching it uses "mice"."""
    fetched = [
        call("lookup", key="usb cables"),
        "8.75",
        call("lookup", key="mouse"),
        "19.95",
        call("calculator", expression="5 * 8.75 + 2 * 19.95"),
        "83.65",
    ]
    model = ScriptedModel([call("calculator", expression="5 + 2 * 3"), "11", *fetched])
    agent = Agent(model, tools=[lookup, calculator])
    agent.fetch_first = False  # the made-up call runs, so that the answer check names the items
    result = await agent.run("What do 5 usb cables and 2 mice cost altogether?")
    assert "(mouse, usb cables) with lookup first" in model.requests[2].messages[-1].content
    assert result.output == "83.65"
    assert len(model.requests) == 8  # 83.65 stands at once: "mice" counts as used


def test_plurals_in_ves_are_forms_of_their_f_word() -> None:
    assert same_word("loaves", "loaf") and same_word("knife", "knives") and same_word("Shelves", "shelf")
    assert not same_word("loaves", "loan") and not same_word("leaves", "loaf")


def test_only_the_f_nouns_take_ves() -> None:
    assert not same_word("saves", "safe") and not same_word("gives", "gif") and not same_word("proves", "prof")
