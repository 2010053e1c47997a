"""Which offered tools the task's own words describe: an answer from memory while one is offered goes back.

Asked for "the biography and main contributions of Pope Innocent III" with `get_papal_biography` offered, the
0.5B model answers from memory (and invents a birth date). A tool whose name and docs share two or more content
words with the task ("biography", "contributions") is what the task asks for. On BFCL dev runs, first-turn
answers where such a tool was offered were wrong 13 times where a call was right and right once where no
tool fits; on the 48 tasks no direct question shares two words with a tool. One shared word is not enough:
"At sea level, at what temperature does water boil?" shares "temperature" with unit_convert. A word that is one
of a tool's choices (an enum value, as a whole word) is shared too: "some Electropop music from around 2014" names
one of `Music_3_LookupMusic`'s genres (thirty-eighth stop; over BFCL's dev questions this adds a fitting tool to
26 entries of the call categories and 2 of the irrelevance ones).

The other way round, no shared word at all (`unrelated`) marks a task no tool is for: over BFCL's data, a task
with no number, quoted text or file-like name that shares no word with any offered tool is 36% of irrelevance
and 21% of live_irrelevance entries (87 of 240, 189 of 884; four-letter stems), against 3 of 400 simple_python, 1 of 200
multiple, 5 of 258 live_simple and 17 of 1,053 live_multiple entries. Generic tools (a calculator, a table
lookup) share few words with the tasks they serve, so only the first call of a tool that may have side effects is
held back on it (`fit_checks.unfitting_call`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentcore.enum_filled import enum_of
from agentcore.function_words import FUNCTION_WORDS
from agentcore.messages import ToolSpec
from agentcore.quotes import QUOTED
from agentcore.tool_kinds import ACTING, acts, asks_to_find, finds
from agentcore.unfinished import numbers_in
from agentcore.unstated import tokens

LEAST_SHARED = 2
_WORD = re.compile(r"[a-z]+")
_STEM = 5  # words match on their first five letters: "contributions" and "contribution", "biography"
_LOOSE = 4  # for `unrelated`, four: "cost" and "costs" are one word, and a tool is held back only on no match


def _words(text: str) -> set[str]:
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ").replace(".", " ").lower()
    return {word for word in _WORD.findall(text) if len(word) >= 3 and word not in FUNCTION_WORDS}


def stems(text: str) -> set[str]:
    """The content words of `text` by their first five letters: "contributions" and "contribution" are one."""
    return {word[:_STEM] for word in _words(text)}


def tool_docs(spec: ToolSpec) -> str:
    """A tool's name, description and each parameter's name and description (not the schema's own keys)."""
    properties: dict[str, Any] = spec.parameters.get("properties") or {}
    params = [
        f"{name} {schema.get('description', '')}" for name, schema in properties.items() if isinstance(schema, dict)
    ]
    return " ".join([spec.name, spec.description, *params])


def shares_docs(text: str, specs: Sequence[ToolSpec]) -> bool:
    """Whether some tool's name or docs use a content word of `text` (by its first five letters)."""
    words = stems(text)
    return any(words & stems(tool_docs(spec)) for spec in specs)


def shared_words(task: str, spec: ToolSpec) -> list[str]:
    """The task's content words that the tool's name or docs also use (by their first five letters)."""
    shared = stems(tool_docs(spec))
    choices = tokens(choice_words(spec))  # whole words: "Reggae" of a genre list, not "musical" for "music"
    return sorted(word for word in _words(task) if word[:_STEM] in shared or tokens(word) & choices)


def fitting_tools(task: str, specs: Sequence[ToolSpec]) -> list[str]:
    """The offered tools that share two or more content words with the task, or whose name the task uses for a
    text it quotes (`names_quoted_work`). All of them, not only the closest: "a list of all the PostgreSQL
    servers" shares more words with `add_postgres_server` than with `list_servers`."""
    return [
        spec.name for spec in specs if len(shared_words(task, spec)) >= LEAST_SHARED or names_quoted_work(task, spec)
    ]


def tools_for_number(task: str, answer: str, specs: Sequence[ToolSpec]) -> list[str]:
    """With no call tried, an answer with a number the task does not have came from memory: "The backpack costs
    $100." for "How much does a backpack cost, in dollars?" with `lookup` offered (Qwen2.5-Coder-1.5B; forty-eighth
    stop). Then one content word shared with a tool's docs ("dollars") is enough: the offered tools sharing one.
    Over every saved BFCL answer of agentcore (1,567 entries, dev and test), it adds a fitting tool to 2 answers of
    the call categories, wrong without a call, and 1 of the irrelevance ones, right without it. A task with
    numbers of its own is the unsourced check's (`unfinished.guessed`)."""
    given = set(numbers_in(task))
    if not any(number not in given for number in numbers_in(answer)):
        return []
    return [spec.name for spec in specs if shares_docs(task, [spec])]


def names_quoted_work(task: str, spec: ToolSpec) -> bool:
    """Whether the task quotes a text and, outside the quotes, uses a word (4+ letters) of the tool's name:
    "Reverse the word 'strawberry'." with `reverse_string`. Qwen2.5-Coder-1.5B answered such tasks from memory,
    and wrongly ("elppa" for 'apple'), where the 0.5B model called the tool (forty-eighth stop). Over BFCL's dev
    questions this fits a tool to 6 more entries of the call categories and 1 of the irrelevance ones than two
    shared words do."""
    if not QUOTED.search(task):
        return False
    named = {word[:_STEM] for word in _words(spec.name) if len(word) >= 4}
    return bool(named & stems(QUOTED.sub(" ", task)))


# Something for a tool to work on: a number, text in quotes, or a name with a dot, slash, @ or underscore inside
# ("prices.txt", "paypal.com", "a/b", "john_doe").
_GIVEN = re.compile(r"\d|(?<!\w)'[^']+'(?!\w)|\"[^\"]+\"|\w[./@_]\w")


def unrelated(task: str, specs: Sequence[ToolSpec]) -> bool:
    """Whether no tool of `specs` shares a content word with the task, while the task has two or more content
    words and no number, quoted text or file-like name ("What color is a clear daytime sky?" offered `lookup`;
    not "How much does a gizmo cost? The prices are in prices.txt." offered the file tools). A tool's choices are
    its words too (forty-fourth stop): "Find a Comedy film that features Vanessa Przada?" names a genre of
    `Movies_3_FindMovies`, whose docs say "movies", and the right call was held. Over BFCL's dev questions this
    judges 6 fewer entries of the call categories unrelated (11 -> 5) and 2 fewer of the irrelevance ones."""
    if len(_words(task)) < LEAST_SHARED or _GIVEN.search(task):
        return False
    stems = {word[:_LOOSE] for word in _words(task)}
    return not any(
        stems & {word[:_LOOSE] for word in _words(f"{tool_docs(spec)} {choice_words(spec)}")} for spec in specs
    )


def choice_words(spec: ToolSpec) -> str:
    """The enum values of a tool's parameters (and of list items): what only this tool can be asked for."""
    found = (enum_of(schema) for schema in (spec.parameters.get("properties") or {}).values())
    return " ".join(str(value) for enum in found if enum is not None for value in enum[0])


def _by_choices(task: str, tied: list[ToolSpec]) -> list[ToolSpec]:
    """Of tools tied on their names and descriptions, those whose choices name most of the task's words ("rock"
    in `Music_3_LookupMusic`'s genres, where `Media_3_FindMovies` and `Music_3_PlayMedia` also share one word);
    all of them when no choice is named. Whole words, not stems: "musical", a film genre, is no "music"."""
    if len(tied) < 2:
        return tied
    said = tokens(task) - FUNCTION_WORDS
    named = {spec.name: len(said & tokens(choice_words(spec))) for spec in tied}
    most = max(named.values())
    return [spec for spec in tied if named[spec.name] == most] if most else tied


def _by_all_docs(task_stems: set[str], tied: list[ToolSpec]) -> list[ToolSpec]:
    """Of tools still tied, those whose whole docs (parameters too) share most of the task's words: "a unisex
    salon" ties `Services_1_BookAppointment` and `Services_1_FindProvider` on "hair" and "salon", and only the
    second has `is_unisex` (BFCL live_multiple dev 770)."""
    if len(tied) < 2:
        return tied
    shared = {spec.name: len(task_stems & stems(tool_docs(spec))) for spec in tied}
    most = max(shared.values())
    return [spec for spec in tied if shared[spec.name] == most]


def _by_kind(task: str, tied: list[ToolSpec]) -> list[ToolSpec]:
    """Of tools still tied, for a task that asks to find, the one that finds (`tool_kinds.finds`): "will you
    find me a salon in Fremont?" ties `Services_1_BookAppointment` and `Services_1_FindProvider` on their docs too
    (BFCL live_multiple dev 772)."""
    finding = [spec for spec in tied if finds(spec)]
    return finding if len(tied) > 1 and len(finding) == 1 and asks_to_find(task) else tied


def closer_tool(task: str, chosen: ToolSpec, specs: Sequence[ToolSpec]) -> tuple[ToolSpec, list[str]] | None:
    """The one offered tool whose name and description share more of the task's content words than all of
    `chosen`'s docs (its parameters' names and docs too) do, with those words, if one does and no other ties it:
    "Can you search for some rock music" took `Media_3_PlayMovie` where `Music_3_LookupMusic` ("Lookup music ...
    genre ... rock") was offered. The other tools are read by name and description only, since every tool of one
    API shares parameter docs ("location", "date"); the chosen one by all its docs, so that a word the task
    happens to share with another's description ("preferably", "preferences") does not outweigh the parameters
    the chosen tool was picked for ("insurance", "counselor").

    Every tool's choices (its enum values, whole words of letters) count as words it shares (forty-first stop):
    "a Theater event in Chicago" shares "event" with both `Events_3_FindEvents` and `Events_3_BuyEventTickets`,
    and only the first lists "Theater". Replayed over BFCL's dev ground truth (each wrong tool as if chosen), the
    right tool is named for 1,034 wrong calls of live_multiple rather than 905, a wrong one for 37 rather than 64,
    and a right call is held for 8 rather than 12 (`python -m bench.bfcl_closer --split dev`). A tie left is broken
    by the tools' choices (`_by_choices`), then by their whole docs (`_by_all_docs`), then, for a task that asks to
    find, by which of them finds (`_by_kind`). With these two (forty-fifth stop) the right tool is named for 1,105
    wrong calls rather than 1,034, a wrong one for 45 rather than 37, and right calls held are still 8. A tie
    with the chosen tool itself goes to the other where its API's tools share more of the task's words
    (`_family_closer`, forty-sixth stop): 1,131 rather than 1,105, a wrong one for 48, right calls held 8; so
    does one where the chosen tool acts, the other finds and the task names no act (`_kind_closer`): 1,174, 49
    and 9."""
    task_stems = stems(task)
    said = {word for word in tokens(task) - FUNCTION_WORDS if word.isalpha() and len(word) >= 3}

    def shared(text: str, spec: ToolSpec) -> set[str]:
        return (task_stems & stems(text)) | {word[:_STEM] for word in said & tokens(choice_words(spec))}

    scores = {spec.name: len(shared(_name_and_description(spec), spec)) for spec in specs}
    scores[chosen.name] = len(shared(tool_docs(chosen), chosen))
    best = max((score for name, score in scores.items() if name != chosen.name), default=0)
    top = _by_choices(task, [spec for spec in specs if spec.name != chosen.name and scores[spec.name] == best])
    top = _by_kind(task, _by_all_docs(task_stems, top))
    if len(top) != 1 or best < scores[chosen.name]:
        return None
    if best == scores[chosen.name] and not (
        _family_closer(task_stems, top[0], chosen, specs) or _kind_closer(task, top[0], chosen)
    ):
        return None
    common = shared(_name_and_description(top[0]), top[0])
    return top[0], sorted({word for word in _words(task) if word[:_STEM] in common})


def _kind_closer(task: str, other: ToolSpec, chosen: ToolSpec) -> bool:
    """Whether, of two tools tied on the task's words, `chosen` acts and `other` finds, for a task that names no
    act at all: "I NEED ALL API TOKENS NOW!!!" ties `post_api_token` and `get_api_tokens`."""
    said = set(_WORD.findall(task.lower()))
    names_an_act = any(said & {verb, f"{verb}s", f"{verb}ing"} for verb in ACTING)
    return acts(chosen) and finds(other) and not names_an_act


_FAMILY = re.compile(r"([A-Z][A-Za-z]*_\d+)_[A-Za-z]+")  # "Events_3_BuyEventTickets": the API "Events_3"


def family(name: str) -> str | None:
    """The API a tool's name says it belongs to: "Events_3" for "Events_3_BuyEventTickets", "EventSettingsApi"
    for "EventSettingsApi.get_system_rules"; None for a name that says none."""
    if "." in name:
        return name.rsplit(".", 1)[0]
    match = _FAMILY.fullmatch(name)
    return match.group(1) if match else None


def _family_closer(task_stems: set[str], other: ToolSpec, chosen: ToolSpec, specs: Sequence[ToolSpec]) -> bool:
    """Whether, of two tools tied on the task's words, `other`'s API shares more of them than `chosen`'s, read
    over every offered tool of each: "buy 2 tickets for the Anthony Green concert" ties `Buses_3_BuyBusTicket`
    and `Events_3_BuyEventTickets` on "buy" and "tickets", and only the Events API speaks of concerts (its
    `FindEvents` does). Tools of no named API, or of the same one, are not compared, nor an API of one offered
    tool, where there is nothing to read but the tool itself."""
    ours, theirs = family(chosen.name), family(other.name)
    if ours is None or theirs is None or ours == theirs or [family(s.name) for s in specs].count(theirs) < 2:
        return False

    def shared(api: str) -> int:
        said = (stems(_name_and_description(spec)) for spec in specs if family(spec.name) == api)
        return len(task_stems & set().union(*said))

    return shared(theirs) > shared(ours)


def _name_and_description(spec: ToolSpec) -> str:
    return f"{spec.name.split('.')[-1]} {spec.description}"
