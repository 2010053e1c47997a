"""A string's choices listed in its docs, read as the enum they describe (agentcore.doc_choices, issue #18)."""

from __future__ import annotations

import pytest

from agentcore.doc_choices import documented_choices
from agentcore.grammar import schema_to_gbnf
from tests.unit.test_grammar import Grammar, llama_parses


def text(description: str) -> dict[str, str]:
    return {"type": "string", "description": description}


@pytest.mark.parametrize(
    ("description", "choices"),
    [
        # BFCL's own docs (dev entries)
        ("Level of detail for stock information. Can be 'summary' or 'detailed'.", ("summary", "detailed")),
        ("The operation to carry out on the table. Can be 'delete' or 'add'.", ("delete", "add")),
        (
            "The model used to make the prediction, options: 'Darwin', 'Lamarck', default is 'Darwin'.",
            ("Darwin", "Lamarck"),
        ),
        ("The gender of the team. It can be either 'men' or 'women'. Default is 'men'.", ("men", "women")),
        (
            "The order in which to sort the elements. This can be 'asc' for ascending order, or 'desc' for descending "
            "order.",
            ("asc", "desc"),
        ),
        ("Possible values are 'Bot', 'BotLocale', or 'CustomVocabulary'.", ("Bot", "BotLocale", "CustomVocabulary")),
        ('Must be "on" or "off". Default is "auto".', ("on", "off", "auto")),
        # unquoted lists, bracketed or after a colon (BFCL's executable categories)
        (
            "The country of the holidays. Possible options: US, AT, DE, ES, FR, GB, IT, NL, PL, RO, SK, UA.",
            ("US", "AT", "DE", "ES", "FR", "GB", "IT", "NL", "PL", "RO", "SK", "UA"),
        ),
        ("The gender of the person. Possible options [male, female, other].", ("male", "female", "other")),
        ("Choices include: non-stop, direct, and multi-stop.", ("non-stop", "direct", "multi-stop")),
        ("Must be one of (asc or desc). Default is 'asc'.", ("asc", "desc")),
        # unquoted, but not a list of values: sentences, open lists, one item
        ("Options: the name of the user, or the email of the user.", ()),
        ("Possible options: cities such as Paris, Rome.", ()),
        ("Can be one of the following (in stock).", ()),
        # open lists, examples, one value, no list
        ("The type of the case. Options include: 'civil', 'criminal', 'small_claims', etc. Default is 'all'.", ()),
        ("The type of item. Default is 'all'. Possible values: 'all', 'bug', 'fish', 'sea creatures', etc.", ()),
        ("The city, e.g. 'Boston' or 'Denver'.", ()),
        ("Can be one of several styles such as 'bold' or 'thin'.", ()),
        ("The stock market of interest. Default is 'NASDAQ'", ()),
        ("The name of the company.", ()),
        ("Either 'a'.", ()),
    ],
)
def test_documented_choices(description: str, choices: tuple[str, ...]) -> None:
    assert documented_choices(text(description)) == choices


def test_a_schema_with_its_own_constraint_keeps_it() -> None:
    docs = "Can be 'summary' or 'detailed'."
    for extra in ({"enum": ["x"]}, {"pattern": "^x$"}, {"format": "date"}, {"const": "x"}):
        assert documented_choices({**text(docs), **extra}) == ()
    assert documented_choices({"type": "integer", "description": docs}) == ()


def test_the_grammar_writes_only_the_documented_choices() -> None:
    """BFCL multiple_148: the model wrote `detail_level="full"`."""
    level = text("Level of detail for stock information. Can be 'summary' or 'detailed'.")
    gbnf = schema_to_gbnf({"type": "object", "properties": {"level": level}, "required": ["level"]})
    assert llama_parses(gbnf)
    grammar = Grammar(gbnf)
    assert grammar.accepts('{"level": "detailed"}') and grammar.accepts('{"level": "summary"}')
    assert not grammar.accepts('{"level": "full"}')
