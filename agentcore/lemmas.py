"""Word forms that differ by more than an ending: "mice" and "mouse", "teeth" and "tooth", "batteries" and "battery".

The checks match a task's words against calls and results with a plural "s" allowed either way
(`grounding.mentions`). That misses irregular plurals: "What do 5 usb cables and 2 mice cost?" was never looked up
as "mouse" (compose19's a07), the item probe tried "mice" and failed, and a run that did fetch "mouse" was told
that "mice" was still unused. simplemma (a dictionary lemmatizer, no model, no network) gives each word its lemma;
two words are the same when their lemmas are and they share a first letter. The first letter keeps verb forms
apart that a lemmatizer joins ("was" and "is", "better" and "good"): the checks compare nouns.
"""

from __future__ import annotations

from functools import lru_cache

LANGUAGE = "en"  # the checks' other word lists (grounding.FUNCTION_WORDS) are English too


@lru_cache(maxsize=8192)
def lemma(word: str) -> str:
    """`word`'s dictionary form, lower case; the word itself when the dictionary does not know it."""
    import simplemma  # loaded where first needed: its English table takes about 0.3 s once

    return str(simplemma.lemmatize(word.lower(), lang=LANGUAGE)).lower()


def same_word(one: str, other: str) -> bool:
    """`one` and `other` are forms of one word ("mice", "mouse"), or the same word."""
    one, other = one.lower(), other.lower()
    if one == other or _f_plural(one, other) or _f_plural(other, one):
        return True
    return one[:1] == other[:1] and lemma(one) == lemma(other)


# English nouns whose plural turns f or fe into ves (a closed class): the dictionary leaves "loaves" as "loave".
_F_NOUNS = frozenset({"calf", "elf", "half", "hoof", "knife", "leaf", "life", "loaf", "scarf", "self", "sheaf",
                      "shelf", "thief", "wife", "wolf", "wharf"})  # fmt: skip


def _f_plural(plural: str, single: str) -> bool:
    """The plural of one of those nouns ("loaves" of "loaf"); not "saves" of "safe"."""
    return single in _F_NOUNS and plural.endswith("ves") and single in (plural[:-3] + "f", plural[:-3] + "fe")


def irregular(word: str) -> str | None:
    """`word`'s lemma where a lookup that drops a plural "s" would not find it ("mice": "mouse", "batteries":
    "battery"); None for a word that is its own lemma, or that loses only an "s"."""
    found = lemma(word)
    plain = word.lower()
    if found in (plain, plain.removesuffix("s")) or found[:1] != plain[:1]:
        return None
    return found
