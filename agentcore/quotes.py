"""A text the task quotes, miscopied into a call: a small model repeats a run of the same word one time too few
or runs on ("la la ... bye" with one "la" lost; "ha ha ha ..." a hundred times), or drops a letter of a long
quote. The tool is there to work on the task's text, so a string argument that is a near copy of a quoted span
goes as the span itself.

Near copy: the same words in another count or order, or as many words with a character-level similarity of at
least `NEAR` (difflib's ratio: one letter lost from "photosynthesis"). A word in other letters ("YES" for
'yes') is a transformation, not a slip, and an added word makes the model's own text: "hello world" is no copy
of 'hello'. Measured offline: of 849 saved BFCL calls one changed ("Go for shopping at 9 pm" to the task's "go
for ..."), of the saved compose and trap calls only two that had failed.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

NEAR = 0.9
MIN_REARRANGED = 5  # "ab" and "ba" may both be meant
MIN_REST = 3  # words of the task's own beside two quotes run together: the model copied the task, not a list
MIN_RUN = 3  # a quote that opens with a word three times or more: a run the model may repeat past
# The quotes of English tasks, typographic ones and code's backticks too; an apostrophe inside a word ("the
# tablet's price") opens and closes none.
QUOTED = re.compile(r"(?<!\w)'([^']{2,}?)'(?!\w)|\"([^\"]{2,})\"|“([^”]{2,})”|‘([^’]{2,})’|`([^`\n]{2,})`")


def quoted(task: str) -> list[str]:
    """The task's quoted spans, in order."""
    return [next(group for group in match.groups() if group is not None) for match in QUOTED.finditer(task)]


def as_quoted(arguments: dict[str, Any], task: str, taken: Sequence[str] = ()) -> dict[str, Any]:
    """`arguments` with each string that nearly copies one of the task's quoted spans written as that span, and
    each that runs two or more of them together written as the first that no earlier call took (`taken`: their
    string arguments); the same object when none does."""
    spans = quoted(task)
    if not spans:
        return arguments
    fixed = {
        key: _span_for(_one_span(value, spans, taken), spans) if isinstance(value, str) else value
        for key, value in arguments.items()
    }
    return fixed if fixed != arguments else arguments


def _one_span(value: str, spans: Sequence[str], taken: Sequence[str]) -> str:
    """The first span no earlier call took, where `value` holds two or more of the task's spans whole: "Together,
    what percent of my 50-word limit do they use?" after an intro and a conclusion, each quoted, was counted as
    one text with the question (independent12's cd21). Each quote is a text of its own."""
    places = sorted((value.find(span), value.find(span) + len(span), span) for span in spans if span in value)
    apart = all(end <= start for (_, end, _), (start, _, _) in itertools.pairwise(places))  # 'a b' in 'a b b': one
    left = [span for span in spans if span in value and span not in taken]
    rest = value
    for span in spans:
        rest = rest.replace(span, " ")
    # the task's own words beside them: the model copied the task; "'a b', 'c d'" alone may be one list on purpose
    return left[0] if len(places) > 1 and apart and left and len(rest.split()) >= MIN_REST else value


def _span_for(value: str, spans: Sequence[str]) -> str:
    if value in spans:
        return value
    near = [span for span in spans if _near_copy(value, span) or _rearranged(value, span)]
    return near[0] if len(near) == 1 else value


def _rearranged(value: str, span: str) -> bool:
    """The span's own characters in another order, as long as it: the model did the work before the
    call ("DC-ab_12.x" for `ab-CD_12.x` mirrored, "sakay's Anna" for “Anna's kayak” reversed; Qwen2.5-Coder-1.5B,
    forty-ninth stop, trap4 dev), and the tool then undid it. The span reversed exactly is the job done, for a tool
    that keeps it ("Write 'photosynthesis' backwards into notes.txt"), and stays."""
    if value.lower() in (span.lower(), span[::-1].lower()) or len(span) < MIN_REARRANGED:
        return False
    return len(value) == len(span) and set(value.lower()) <= set(span.lower())


def _near_copy(value: str, span: str) -> bool:
    words, span_words = value.split(), span.split()
    if len(span_words) > 1 and _bare(words) == _bare(span_words):  # the same words, another count or order
        return True
    if _runs_on(words, span_words):
        return True
    if len(words) != len(span_words):
        return False
    return SequenceMatcher(None, value, span, autojunk=False).ratio() >= NEAR  # a letter lost or doubled


def _bare(words: Sequence[str]) -> set[str]:
    """The words without the punctuation around them: "Ohio, Rivers, Two" has the words of 'Two Rivers, Ohio'
    (Qwen2.5-Coder-1.5B reversed the word order itself before calling `reverse_string`; forty-ninth stop)."""
    return {word.strip(string.punctuation) for word in words} - {""}


def _runs_on(words: list[str], span_words: list[str]) -> bool:
    """The model repeated the span's opening word past its run and never reached the rest ("ha" a hundred times
    for 'ha ha ... ha ho'): one word only, the span opening with `MIN_RUN` or more of it, more of it than that."""
    run = next((i for i, word in enumerate(span_words) if word != span_words[0]), len(span_words))
    return run >= MIN_RUN and set(words) == {span_words[0]} and len(words) > run
