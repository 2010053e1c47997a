"""The five complexity factors of the router, each scored 0-10 with a short explanation.

Every keyword is matched on word boundaries (never as a substring: "capital" does not contain the technical
keyword "api", "concern" does not contain the sequencing word "once"). Requirements are counted from the
structure of the instructions: imperative clauses, questions, line-leading bullets and sequencing words. A `*`
or `-` between numbers is arithmetic, never a bullet. Quoted text and pasted passages are material, not
instructions, so they add no requirements and no tool needs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

FACTORS = ("task_length", "num_requirements", "domain_breadth", "tool_requirements", "reasoning_depth")

_SUFFIX = r"(?:s|es|'s|[a-z]?ed|[a-z]?ing|ers?)?"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _inflected(word: str) -> str:
    """Regex for a keyword and its regular inflections ("analyze" -> analyzes, analyzed, analyzing)."""
    parts = [re.escape(p) for p in word.split()]
    last = parts[-1]
    if word.endswith("e"):
        last = last[:-1] + r"(?:e|es|ed|ing|ers?)"
    elif word.endswith("y") and len(word) > 3:
        last = last[:-1] + r"(?:y|ies|ied|ying)"
    elif word[-1].isalpha():
        last += _SUFFIX
    return r"\s+".join([*parts[:-1], last])


class LazyPattern:
    """A case-insensitive regex compiled on first use, so that importing the router stays cheap."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        if self._compiled is None:
            self._compiled = re.compile(self.source, re.IGNORECASE)
        return self._compiled.search(text)


def keyword_regex(words: Iterable[str]) -> LazyPattern:
    """One pattern matching any of `words` as whole words (longest first), ignoring case."""
    alternatives = sorted({_inflected(w) for w in words}, key=len, reverse=True)
    return LazyPattern(r"\b(?:" + "|".join(alternatives) + r")\b")


_EXT = r"(?:txt|csv|tsv|jsonl?|md|pdf|py|js|ts|log|ya?ml|xlsx?|docx?|pptx?|html?|xml|ini|toml|cfg|sql|jpe?g|png)"
FILE_RE = re.compile(rf"(?:^|(?<=[\s(\"'`]))[\w./-]*\.{_EXT}\b", re.IGNORECASE)
URL_RE = re.compile(r"https?://\S+|\bwww\.\S+", re.IGNORECASE)
EMAIL_RE = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b")
# Arithmetic: an operator between numbers. A '-' only counts with spaces, so dates and ranges do not.
ARITH_RE = re.compile(
    r"\d\s*(?:[+*/×÷^]|\bx\b|\btimes\b|\bplus\b|\bminus\b|divided\s+by|multiplied\s+by)\s*\(?\d"
    r"|\d\s+-\s+\(?\d|\d\s*%\s*of\b|\d\s+percent\s+of\b",
    re.IGNORECASE,
)


def _phrases(text: str) -> LazyPattern:
    """A keyword pattern from a comma-separated list of words and phrases."""
    return keyword_regex(p.strip() for p in text.split(","))


DOMAINS: Mapping[str, LazyPattern] = {
    "technical": _phrases(
        "code, codebase, programming, software, algorithm, debug, bug, api, function, database, server,"
        " deploy, docker, kubernetes, python, javascript, rust, sql, repository, compiler, backend, frontend,"
        " microservice, architecture, schema, pull request, dependency"
    ),
    "research": _phrases("research, investigate, study, survey, literature, paper, evidence, citation, sources"),
    "business": _phrases(
        "market, marketing, sales, revenue, business, customer, competitor, pricing, roi, profit, startup,"
        " go-to-market, churn, conversion, onboarding, product launch"
    ),
    "creative": _phrases(
        "story, poem, haiku, essay, blog, slogan, tagline, lyrics, novel, fiction, brainstorm, narrative,"
        " newsletter, tweet, ad"
    ),
    "data": _phrases(
        "data, dataset, statistics, statistical, analytics, metrics, csv, spreadsheet, chart, plot,"
        " visualization, median, regression, correlation, column, funnel"
    ),
    "science": _phrases("experiment, hypothesis, theory, scientific, physics, chemistry, biology, climate, clinical"),
    "legal": _phrases(
        "legal, law, regulation, compliance, contract, gdpr, license, licence, liability, clause, privacy"
    ),
    "finance": _phrases(
        "financial, finance, accounting, budget, investment, valuation, tax, loan, mortgage, portfolio,"
        " dividend, earnings, cost, exposure, grant"
    ),
    "health": _phrases("health, medical, symptom, diagnosis, patient, drug, diet, nutrition, fasting"),
}

# Tool categories: what kind of capability a task needs.
TOOL_CATEGORIES: Mapping[str, LazyPattern] = {
    "web": _phrases(
        "web, online, internet, google, browse, website, latest, current, news, today's, weather, forecast,"
        " flight, exchange rate, stock price, look up, search the web, search for, find online"
    ),
    "http": _phrases("api, endpoint, fetch, download, upload, webhook, http status"),
    "calculator": _phrases("calculator, calculate, compute, arithmetic, percent, percentage"),
    "code": _phrases("run, execute, exec, script, test suite, pytest, shell, terminal, command, compile, benchmark"),
    "files": _phrases("file, folder, directory, workspace, attached, attachment, repo, codebase"),
    "database": _phrases("database, sql, db, query the, records"),
    "messaging": _phrases("email, e-mail, mail, inbox, slack, sms, notify"),
    "calendar": _phrases("calendar, schedule, meeting, appointment, reminder, remind"),
    "image": _phrases("image, photo, picture, screenshot, ocr"),
}
_TOOL_EXTRA: Mapping[str, tuple[re.Pattern[str], ...]] = {
    "http": (URL_RE,),
    "calculator": (ARITH_RE,),
    "files": (FILE_RE, re.compile(r"(?:^|\s)\.[a-z]{2,4}\s+files?\b", re.IGNORECASE)),
    "messaging": (EMAIL_RE,),
}
# Words of a tool's name that say little about its subject. What remains ("create_jira_ticket" ->
# "jira ticket") is what a task mentions when it needs the tool.
_GENERIC_NAME_WORDS = _words(
    "get set do make call tool tools fn func run exec execute use the a create add update delete remove"
    " list send read write search fetch open find lookup look"
)

# EffGen's reasoning tiers, first match wins.
REASONING_TIERS: tuple[tuple[float, str, LazyPattern], ...] = (
    (
        9.0,
        "very complex",
        _phrases(
            "design, architect, optimize, optimise, synthesize, synthesise, prove, derive, trade-off,"
            " tradeoff, strategy, strategic, roadmap, comprehensive, end-to-end, go-to-market, migration"
        ),
    ),
    (
        7.0,
        "complex",
        _phrases(
            "analyze, analyse, compare, contrast, evaluate, assess, critique, debug, diagnose, investigate,"
            " research, recommend, justify, why, root cause, plan, review, audit, troubleshoot, prioritize,"
            " prioritise, predict"
        ),
    ),
    (
        5.0,
        "moderate",
        _phrases("explain, describe, summarize, summarise, outline, discuss, interpret, write, draft"),
    ),
    (
        3.0,
        "simple",
        _phrases("what, who, when, where, which, list, define, name, show, tell, convert, translate, is, are"),
    ),
)
_HOW_RE = re.compile(r"\bhow\s+(?:do|does|to|can|could|should|would)\b", re.IGNORECASE)
DEPENDENCY_RE = re.compile(
    r"\b(?:then|after\s+that|afterwards|finally|based\s+on|using\s+the\s+results?|if|unless|otherwise)\b",
    re.IGNORECASE,
)

WORK_VERBS = _words(
    "analyze analyse assess audit benchmark brainstorm build compare compose contrast create critique "
    "debug derive describe design develop document draft estimate evaluate explain explore fix forecast "
    "identify implement investigate optimize optimise outline plan prepare produce propose prove "
    "recommend refactor research review rewrite study summarize summarise survey test translate write "
    "diagnose prioritize prioritise predict"
)
ATOMIC_VERBS = _words(
    "add append calculate check compute convert copy count delete download email fetch find get give "
    "list load look move open post print query read remove rename report retrieve run save schedule "
    "search send show sort store tell upload use book notify remind"
)
# A work verb that only puts something into a file or a record ("write the result to out.txt", "create a
# folder") is one tool step, not a deliverable; auditing or reviewing a file is still real work.
_ARTIFACT_RE = re.compile(
    rf"^\w+\s+(?:(?:a|an|the|new|every|each|all)\s+)*(?:files?|folders?|director(?:y|ies)|tickets?|events?|lines?)\b"
    rf"|\b(?:to|into)\s+(?:(?:a|the|new)\s+)*(?:files?\b|[\w./-]+\.{_EXT}\b)",
    re.IGNORECASE,
)
_FILLER_RE = re.compile(
    r"^(?:please|also|then|first(?:ly)?|second(?:ly)?|next|finally|now|and|so|just|kindly|can\s+you|could\s+you|"
    r"would\s+you|i\s+(?:want|need|would\s+like)\s+you\s+to|i'd\s+like\s+you\s+to|help\s+me|let's)\b[\s,]*",
    re.IGNORECASE,
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;:])\s+|\n+")
_CLAUSE_SPLIT = re.compile(
    r",\s*|\s+(?:and\s+then|and\s+finally|and\s+also|after\s+that|afterwards|then|finally|and)\s+",
    re.IGNORECASE,
)
BULLET_RE = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+(?=\S)")
_QUOTED_RE = re.compile(r"\"[^\"\n]{1,400}\"|“[^”\n]{1,400}”|(?<![\w])'[^'\n]{1,400}'(?![\w])|```.*?```", re.DOTALL)
# "...the following paragraph: <passage>" or "...below: <passage>": the passage is material to work on.
_MATERIAL_NOUNS = (
    r"(?:text|paragraph|passage|article|essay|e?mail|message|review|code|snippet|document|sentence|story"
    r"|abstract|excerpt|transcript|notes?|report|log)"
)
_MATERIAL_RE = re.compile(
    rf"\b(?:following|this|these)\s+(?:[\w-]+\s+){{0,3}}?{_MATERIAL_NOUNS}s?\b[^:\n]{{0,60}}:\s+(?=\S)"
    r"|\bbelow\b[^:\n]{0,40}:\s+(?=\S)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class FactorResult:
    score: float
    detail: str


def instructions_of(task: str) -> str:
    """The instruction part of a task: quoted text, code blocks and pasted passages removed."""
    text = _QUOTED_RE.sub(" QUOTE ", task)
    match = _MATERIAL_RE.search(text)
    if match is not None:
        rest = text[match.end() :]
        if not any(BULLET_RE.match(line) for line in rest.splitlines()):
            text = text[: match.end()]
    return text


def _interpolate(x: float, points: Sequence[tuple[float, float]]) -> float:
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def score_length(task: str, count_tokens: Callable[[str], int] | None, tokens_per_word: float) -> FactorResult:
    """effgen's word bands 20/50/100/200 -> 2/4/6/8, interpolated so one word more is no cliff; 400+ -> 10."""
    if count_tokens is not None:
        tokens = count_tokens(task)
        words, unit = tokens / tokens_per_word, f"{tokens} tokens"
    else:
        words = float(len(task.split()))
        unit = f"{int(words)} words"
    points = ((0.0, 0.0), (20.0, 2.0), (50.0, 4.0), (100.0, 6.0), (200.0, 8.0), (400.0, 10.0))
    return FactorResult(round(_interpolate(words, points), 2), unit)


def _verb_weight(clause: str) -> tuple[float, str]:
    """1 for a substantial work item, 0.5 for one tool step, 0 when the clause has no leading verb."""
    stripped = clause.strip()
    previous = None
    while previous != stripped:
        previous, stripped = stripped, _FILLER_RE.sub("", stripped)
    first = re.match(r"[A-Za-z]+", stripped)
    if first is None:
        return 0.0, ""
    verb = first.group(0).lower()
    if verb in WORK_VERBS:
        return (0.5 if _ARTIFACT_RE.search(stripped) else 1.0), verb
    if verb in ATOMIC_VERBS:
        return 0.5, verb
    return 0.0, ""


def _sentence_units(sentence: str) -> tuple[float, list[str]]:
    units, verbs, last_was_work = 0.0, [], False
    for clause in _CLAUSE_SPLIT.split(sentence):
        weight, verb = _verb_weight(clause)
        if weight:
            units += weight
            verbs.append(verb)
            last_was_work = weight == 1.0
        elif last_was_work and clause.strip(" .!?;:"):
            units += 0.5  # one more subject enumerated after a work verb: the same work done again
            verbs.append("+item")
    if units == 0 and sentence.rstrip().endswith("?"):
        return 1.0, ["question"]
    return units, verbs


def count_requirements(instructions: str) -> tuple[float, list[str]]:
    """Requirement units: work clauses 1, tool steps 0.5, enumerated subjects 0.5, questions and bullets 1."""
    total, labels = 0.0, []
    for line in instructions.splitlines():
        bullet = BULLET_RE.match(line)
        body = line[bullet.end() :] if bullet else line
        line_units, line_labels = 0.0, []
        for sentence in _SENTENCE_SPLIT.split(body):
            units, verbs = _sentence_units(sentence)
            line_units += units
            line_labels += verbs
        if bullet is not None and line_units < 1.0:
            line_units, line_labels = 1.0, ["bullet"]
        total += line_units
        labels += line_labels
    return max(1.0, total), labels


def score_requirements(instructions: str) -> tuple[FactorResult, float]:
    """One requirement scores 0; each further unit adds 2.5, so 5 units reach 10."""
    units, labels = count_requirements(instructions)
    score = min(10.0, 2.5 * (units - 1.0))
    shown = ", ".join(labels) if labels else "one request"
    return FactorResult(round(score, 2), f"{units:g} requirement units ({shown})"), units


def score_domains(task: str) -> FactorResult:
    found = [name for name, pattern in DOMAINS.items() if pattern.search(task)]
    detail = "domains " + ", ".join(found) if found else "no specialist domain"
    return FactorResult(min(10.0, 2.5 * len(found)), detail)


def tool_name_pattern(name: str) -> LazyPattern | None:
    """A pattern for the content words of a tool name ("get_weather" -> "weather"), or None if all generic."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", name).replace("_", " ").replace("-", " ").replace(".", " ")
    content = [w.lower() for w in words.split() if w.lower() not in _GENERIC_NAME_WORDS and len(w) > 2]
    return keyword_regex([" ".join(content)]) if content else None


def tool_category(name: str) -> str | None:
    """The capability category a tool's name suggests ("web_search" -> web), if any."""
    spaced = name.replace("_", " ").replace("-", " ")
    for category, pattern in TOOL_CATEGORIES.items():
        if pattern.search(spaced):
            return category
    return None


def needed_categories(instructions: str) -> list[str]:
    found = []
    for category, pattern in TOOL_CATEGORIES.items():
        extra = _TOOL_EXTRA.get(category, ())
        if pattern.search(instructions) or any(p.search(instructions) for p in extra):
            found.append(category)
    return found


def score_tools(instructions: str, tool_names: Sequence[str]) -> FactorResult:
    """2.5 per needed capability: keyword categories plus available tools the task names outright."""
    needed = needed_categories(instructions)
    units = set(needed)
    mentioned = []
    for name in tool_names:
        pattern = tool_name_pattern(name)
        if pattern is not None and pattern.search(instructions):
            mentioned.append(name)
            units.add(tool_category(name) or f"tool:{name}")
    covering = sorted(n for n in tool_names if tool_category(n) in needed)
    parts = [f"needs {', '.join(needed)}" if needed else "no tool keyword"]
    if mentioned:
        parts.append("names available tools " + ", ".join(mentioned))
    if covering:
        parts.append("covered by " + ", ".join(covering))
    elif needed and tool_names:
        parts.append("no available tool covers that")
    return FactorResult(min(10.0, 2.5 * len(units)), "; ".join(parts))


def score_reasoning(instructions: str) -> FactorResult:
    """effgen's tiers 9/7/5/3 on word boundaries (4 when no cue), +1 per dependent step, at most +2."""
    base, level = 4.0, "no cue"
    for score, name, pattern in REASONING_TIERS:
        match = pattern.search(instructions)
        if match is not None:
            base, level = score, f"{name} ('{match.group(0).lower()}')"
            break
    if base < 5.0 and _HOW_RE.search(instructions):
        base, level = 5.0, "moderate ('how')"
    steps = min(2, len(DEPENDENCY_RE.findall(instructions)))
    detail = level + (f" + {steps} dependent step{'s' if steps > 1 else ''}" if steps else "")
    return FactorResult(min(10.0, base + steps), detail)
