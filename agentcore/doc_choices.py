"""The values a string argument's docs list as its only choices (issue #18).

Real-world schemas often name a string's values in its description rather than as an enum: "Level of detail for
stock information. Can be 'summary' or 'detailed'." (BFCL multiple_148), "The operation to carry out on the table.
Can be 'delete' or 'add'." The grammar writes any string there, and Qwen2.5-Coder-0.5B wrote
`detail_level="full"`; the loop then held the call back as a value no one gave, and the model answered in prose.
Read as the enum it describes, such a string cannot be written outside its choices.

A list counts only when the docs say it is the list ("can be", "either", "one of", "options", "possible values",
"must be") with two or more quoted values, and never when they say it is not ("etc.", "e.g.", "such as", "for
example"). The docs' quoted default joins the choices ("options: 'Darwin', 'Lamarck', default is 'Darwin'"). In
BFCL's dev ground truth, 14 filled values have such docs and all 14 are among the choices, the default, or empty;
the three lists that end in "etc." are left free.

Unquoted lists count too when they are bracketed or follow a colon, each item a word or two: "Possible options:
US, AT, DE, ES, FR, GB." and "Possible options [male, female, other]." (BFCL's executable categories; with the
string free, the model wrote `country="France"` and `gender="30-year-old"`). On BFCL's dev splits such docs cover
6 filled values, all among the choices; the six main categories' dev entries have none.
"""

from __future__ import annotations

import re
from typing import Any

_QUOTED = re.compile(r"""['"]([^'"]{1,40})['"]""")
_LIST = re.compile(
    r"\b(?:can be|could be|either|one of|options?|possible values|valid values|allowed values|accepted values|"
    r"must be|choose from|choices)\b[^.;]*",
    re.I,
)
_OPEN = re.compile(r"\betc\b|\be\.\s?g\.|\bsuch as\b|\bfor (?:example|instance)\b|\blike\b", re.I)
# An unquoted list: bracketed, or from a colon to the sentence's end; items of one or two words, no quotes.
_BRACKETED = re.compile(r"[\[(]([^\])]{1,200})[\])]")
_AFTER_COLON = re.compile(r":\s*([^:]{1,200})$")
_ITEM = re.compile(r"[\w.+/-]+(?: [\w.+/-]+)?")
_DEFAULT = re.compile(r"\bdefaults?(?: value)?(?: is| to|:)?\s*" + _QUOTED.pattern, re.I)


def documented_choices(schema: dict[str, Any]) -> tuple[str, ...]:
    """The quoted values `schema`'s description lists as a free string's choices, with its quoted default; ()
    when it has none, is no plain string (an enum, const, pattern or format of its own), or the list is open."""
    if schema.get("type") != "string" or any(key in schema for key in ("enum", "const", "pattern", "format")):
        return ()
    docs = str(schema.get("description", ""))
    for match in _LIST.finditer(docs):
        sentence = _sentence_from(docs, match.start())
        choices = [c for c in _QUOTED.findall(sentence) if c.strip()]
        choices = choices if len(set(choices)) >= 2 else _unquoted(sentence)
        if len(set(choices)) >= 2 and not _OPEN.search(sentence):
            default = _DEFAULT.search(docs)
            found = [*choices, default.group(1)] if default else choices
            return tuple(dict.fromkeys(found))
    return ()


def documented_values(schema: dict[str, Any]) -> tuple[str, ...]:
    """The choices of `documented_choices`, or else the docs' quoted default alone ("Default is 'NASDAQ'"): values
    the docs give the argument, which no one need say in the conversation."""
    default = _DEFAULT.search(str(schema.get("description", "")))
    return documented_choices(schema) or ((default.group(1),) if default else ())


def _unquoted(sentence: str) -> list[str]:
    """The items of a bracketed or colon-led list in `sentence` ("[male, female, other]", ": US, AT, DE"); [] when
    there is none, or an item is more than two words (a sentence, not a value)."""
    found = _BRACKETED.search(sentence) or _AFTER_COLON.search(sentence)
    if found is None:
        return []
    items = [item.strip() for item in re.split(r",|\b(?:or|and)\b", found.group(1))]
    items = [item for item in items if item]
    return items if all(_ITEM.fullmatch(item) for item in items) else []


def _sentence_from(docs: str, start: int) -> str:
    """`docs` from `start` to the end of its sentence (a full stop that ends a word and is followed by a space)."""
    end = re.search(r"(?<=[\w'\"])\.(?:\s|$)", docs[start:])
    return docs[start : start + end.start()] if end else docs[start:]
