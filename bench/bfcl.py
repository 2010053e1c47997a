"""BFCL v4 (Berkeley Function Calling Leaderboard), single-turn categories, on agentcore and on bare llama.cpp.

    ./scripts/setup_bfcl.sh        # once: bfcl-eval (its data and AST checker) into bench/peers/.venv-bfcl
    python -m bench.bfcl [--split dev|test] [--skip N] [--limit N] [--categories a,b] [--systems ...] [--out-dir D]

Entries and possible answers come from the installed `bfcl-eval` package (`load_dataset_entry`, which adds BFCL's
"Note that the provided function is in Python 3 syntax." to each description, and `load_ground_truth_entry`);
every answer is scored by bfcl-eval's own AST checker (`ast_checker`; irrelevance: correct when the decoded output
holds no call, `is_empty_output`), as its eval runner does. The function docs become JSON Schemas the way BFCL's
`convert_to_tool` casts them (`dict` -> object, `float` -> number with a note, `tuple` -> array, `any` -> string,
...); names keep their dots, so the checker's `underscore_to_dot` flag is False.

bfcl-eval's checker imports `bfcl_eval.constants.model_config`, which imports every vendor SDK (openai, anthropic,
mistral, cohere, google-genai, ...) only to build MODEL_CONFIG_MAPPING; the AST checker reads one field of it,
`MODEL_CONFIG_MAPPING[model].underscore_to_dot`. `load_bfcl` puts a stub of that module in sys.modules first, so
the package runs with --no-deps plus filelock, tenacity and tree_sitter (scripts/setup_bfcl.sh).

`--categories exec_simple,exec_multiple` (opt-in) adds BFCL's retired executable categories, which bfcl-eval ships
in data/unused_datasets with a ground-truth call to run; bench/bfcl_exec.py turns it into possible answers.

Each category is split by position: even-indexed entries are `dev`, odd-indexed `test`; `--limit N` takes the
first N of the split per category. Results: OUT/bfcl.json ({"systems": {NAME: {CATEGORY: {"correct", "n"}}},
"split", "limit"}), OUT/bfcl.md (table and set-up), OUT/bfcl_entries.jsonl (every answer, for reading).
Systems: bench/bfcl_systems.py.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import shlex
import sys
import time
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentcore.messages import ToolSpec
from bench.bfcl_exec import EXEC_CATEGORIES, is_exec, load_exec
from bench.bfcl_parallel import PARALLEL_CATEGORIES, is_parallel

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "bench" / "peers" / ".venv-bfcl"
RESULTS_DIR = ROOT / "bench" / "results"
BFCL_VERSION = "2026.3.23"
CATEGORIES = ("simple_python", "multiple", "irrelevance", "live_simple", "live_multiple", "live_irrelevance")
# Opt-in, not in the default run: BFCL's retired executable categories, held out until the fifty-first stop, and
# its parallel ones (several calls for one request; agentcore and bare only), held out until the fifty-second.
EXTRA_CATEGORIES = (*EXEC_CATEGORIES, *PARALLEL_CATEGORIES)
PARALLEL_SYSTEMS = ("agentcore", "bare", "bare-loop")  # bare-loop: the parallel categories only
SYSTEM_NAMES = (
    "agentcore",
    "agentcore+relevance",
    "agentcore+tiers",
    "agentcore+tiers-first",
    "agentcore-native",
    "bare",
    "bare-loop",
)
DEFAULT_SYSTEMS = ("agentcore", "agentcore+relevance", "bare")  # agentcore-native and the tiers: opt-in
TIERS = {"agentcore+tiers", "agentcore+tiers-first"}  # RoutingPolicy's tiers; -first: the 1.5B in native-first
# Scored from the bare system's own replies, no extra model call: <tool_call> blocks, else a JSON call without them.
DERIVED = {"bare-lenient": "bare"}
CHECKER_MODEL = "agentcore"  # the model name the checker is given (it only looks up underscore_to_dot)

# BFCL's GORILLA_TO_OPENAPI (bfcl_eval/constants/type_mappings.py): BFCL doc types -> JSON Schema types.
GORILLA_TO_OPENAPI = {
    "integer": "integer", "number": "number", "float": "number", "string": "string", "boolean": "boolean",
    "bool": "boolean", "array": "array", "list": "array", "dict": "object", "object": "object", "tuple": "array",
    "any": "string", "byte": "integer", "short": "integer", "long": "integer", "double": "number",
    "char": "string", "ArrayList": "array", "Array": "array", "HashMap": "object", "Hashtable": "object",
    "Queue": "array", "Stack": "array", "Any": "string", "String": "string", "Bigint": "integer",
}  # fmt: skip


# -- function docs -> ToolSpecs --------------------------------------------------------------------------------


def _cast(properties: dict[str, Any]) -> dict[str, Any]:
    """BFCL's `_cast_to_openai_type(properties, GORILLA_TO_OPENAPI)` (model_handler/utils.py), in place: unknown
    or missing types become string; a float gets `format: float` and a note in its description; nested
    properties and list items (one or two levels, as BFCL goes) are cast too."""
    for value in properties.values():
        kind = value.get("type")
        if kind == "float":
            value["format"] = "float"
            value["description"] = value.get("description", "") + " This is a float type value."
        value["type"] = GORILLA_TO_OPENAPI.get(kind, "string") if kind is not None else "string"
        if value["type"] not in ("array", "object"):
            continue
        if "properties" in value:
            value["properties"] = _cast(value["properties"])
        elif isinstance(value.get("items"), dict):
            items = value["items"]
            items["type"] = GORILLA_TO_OPENAPI.get(items.get("type"), "string")
            if items["type"] == "array" and isinstance(items.get("items"), dict):
                items["items"]["type"] = GORILLA_TO_OPENAPI.get(items["items"].get("type"), "string")
            elif items["type"] == "object" and "properties" in items:
                items["properties"] = _cast(items["properties"])
    return properties


def json_schema(doc: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a BFCL function doc's parameters, as BFCL's convert_to_tool makes it (not mutating)."""
    parameters = copy.deepcopy(doc.get("parameters") or {})
    parameters["type"] = "object"
    parameters["properties"] = _cast(parameters.get("properties") or {})
    return parameters


def tool_spec(doc: dict[str, Any]) -> ToolSpec:
    return ToolSpec(name=str(doc["name"]), description=str(doc.get("description", "")), parameters=json_schema(doc))


# -- data ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    category: str
    messages: tuple[dict[str, Any], ...]  # the first (only) turn of the question
    functions: tuple[dict[str, Any], ...]  # BFCL's function docs, as the checker reads them
    ground_truth: Any  # possible answers (None for irrelevance)

    def specs(self) -> list[ToolSpec]:
        return [tool_spec(doc) for doc in self.functions]


def split_entries(entries: Sequence[Any], split: str, limit: int | None = None, skip: int = 0) -> list[Any]:
    """Even-indexed entries are `dev`, odd-indexed `test`; then, after the first `skip`, the first `limit`."""
    if split not in ("dev", "test"):
        raise ValueError(f"split must be dev or test, got {split!r}")
    chosen = list(entries[0 if split == "dev" else 1 :: 2])[skip:]
    return chosen if limit is None else chosen[:limit]


def is_irrelevance(category: str) -> bool:
    return "irrelevance" in category


@dataclass(frozen=True, slots=True)
class Bfcl:
    """The parts of bfcl-eval we use."""

    version: str
    load_dataset_entry: Any
    load_ground_truth_entry: Any
    ast_checker: Any
    is_empty_output: Any
    is_function_calling_format_output: Any
    python: Any  # Language.PYTHON
    convert_to_tool: Any  # for the converter cross-check
    ossmodel: Any  # ModelStyle.OSSMODEL
    data_root: Path  # the package's data/ folder (unused_datasets holds the executable categories)


@dataclass(frozen=True, slots=True)
class _CheckerConfig:
    """What the AST checker reads of a ModelConfig: `.` in function names is kept."""

    underscore_to_dot: bool = False


class _AnyModel(dict[str, _CheckerConfig]):
    def __missing__(self, key: str) -> _CheckerConfig:
        return _CheckerConfig()


def install_model_config_stub() -> None:
    """Replace bfcl_eval.constants.model_config (every vendor SDK) with the one flag the checker reads."""
    name = "bfcl_eval.constants.model_config"
    if name not in sys.modules:
        stub = types.ModuleType(name)
        stub.__doc__ = "Stub by bench/bfcl.py: the AST checker reads only MODEL_CONFIG_MAPPING[m].underscore_to_dot."
        stub.MODEL_CONFIG_MAPPING = _AnyModel()  # type: ignore[attr-defined]
        sys.modules[name] = stub


def load_bfcl(library: Path = LIBRARY) -> Bfcl:
    """Import bfcl-eval from its own folder (after .venv's packages), with the model_config stub in place."""
    if library.is_dir() and str(library) not in sys.path:
        sys.path.append(str(library))
    # bfcl-eval creates result/, score/ and .file_locks/ under its project root at import: keep them in its folder.
    os.environ.setdefault("BFCL_PROJECT_ROOT", str(library / "home"))
    install_model_config_stub()
    try:
        from importlib.metadata import version

        from bfcl_eval.constants.enums import Language, ModelStyle
        from bfcl_eval.constants.eval_config import PROMPT_PATH
        from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
        from bfcl_eval.model_handler.utils import convert_to_tool
        from bfcl_eval.utils import (
            is_empty_output,
            is_function_calling_format_output,
            load_dataset_entry,
            load_ground_truth_entry,
        )
    except ImportError as exc:
        raise SystemExit(f"bfcl-eval is not installed ({exc}): run ./scripts/setup_bfcl.sh") from None
    try:
        found = version("bfcl-eval")
    except Exception:
        found = "?"
    return Bfcl(found, load_dataset_entry, load_ground_truth_entry, ast_checker, is_empty_output,
                is_function_calling_format_output, Language.PYTHON, convert_to_tool, ModelStyle.OSSMODEL,
                Path(PROMPT_PATH))  # fmt: skip


def load_entries(bfcl: Bfcl, category: str) -> list[Entry]:
    if is_exec(category):
        return [
            Entry(e["id"], category, tuple(e["question"][0]), tuple(e["function"]), answers)
            for e, answers in load_exec(bfcl.data_root, category)
        ]
    entries = bfcl.load_dataset_entry(category)
    answers: dict[str, Any] = {}
    if not is_irrelevance(category):
        answers = {item["id"]: item["ground_truth"] for item in bfcl.load_ground_truth_entry(category)}
    return [
        Entry(e["id"], category, tuple(e["question"][0]), tuple(e["function"]), answers.get(e["id"])) for e in entries
    ]


def check_converter(bfcl: Bfcl, entries: Iterable[Entry]) -> list[str]:
    """Function docs whose JSON Schema differs from bfcl-eval's own convert_to_tool (names aside: BFCL's OSS
    style turns dots into underscores, and we keep them)."""
    wrong = []
    for entry in entries:
        for doc in entry.functions:
            theirs = bfcl.convert_to_tool([doc], GORILLA_TO_OPENAPI, bfcl.ossmodel)[0]
            spec = tool_spec(doc)
            if theirs["parameters"] != spec.parameters or theirs["description"] != spec.description:
                wrong.append(f"{entry.id}:{doc['name']}")
    return wrong


# -- scoring ------------------------------------------------------------------------------------------------


def score(bfcl: Bfcl, entry: Entry, calls: list[dict[str, dict[str, Any]]]) -> tuple[bool, str | None]:
    """(correct, the checker's error) for the decoded calls, as bfcl-eval's eval runner judges them."""
    if is_irrelevance(entry.category):
        ok = bool(bfcl.is_empty_output(calls))
        return ok, None if ok else "a call where none was expected"
    if not bfcl.is_function_calling_format_output(calls):
        return False, "not in function-calling format"
    result = bfcl.ast_checker(
        copy.deepcopy(list(entry.functions)), calls, entry.ground_truth, bfcl.python, entry.category, CHECKER_MODEL
    )
    if result["valid"]:
        return True, None
    return False, f"{result.get('error_type')}: {'; '.join(map(str, result.get('error', [])))}"


# -- results ------------------------------------------------------------------------------------------------


def empty_scores(systems: Sequence[str], categories: Sequence[str]) -> dict[str, dict[str, dict[str, int]]]:
    return {s: {c: {"correct": 0, "n": 0} for c in categories} for s in systems}


def results_json(scores: dict[str, dict[str, dict[str, int]]], split: str, limit: int | None) -> dict[str, Any]:
    return {"systems": scores, "split": split, "limit": limit}


def _cell(counts: dict[str, int]) -> str:
    n = counts["n"]
    return f"{counts['correct']}/{n} ({100 * counts['correct'] / n:.0f}%)" if n else "-"


def markdown(data: dict[str, Any], header: Sequence[str] = ()) -> str:
    systems: dict[str, dict[str, dict[str, int]]] = data["systems"]
    names = list(systems)
    categories = list(dict.fromkeys(c for s in systems.values() for c in s))
    lines = ["# BFCL v4 (single turn, AST checker)", "", *header]
    if header:
        lines.append("")
    lines += ["| category | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for category in categories:
        row = [_cell(systems[s].get(category, {"correct": 0, "n": 0})) for s in names]
        lines.append(f"| {category} | " + " | ".join(row) + " |")
    totals = []
    for s in names:
        counts = systems[s].values()
        totals.append(_cell({"correct": sum(c["correct"] for c in counts), "n": sum(c["n"] for c in counts)}))
    lines.append("| **all** | " + " | ".join(totals) + " |")
    return "\n".join(lines) + "\n"


def write_results(
    out_dir: Path, data: dict[str, Any], header: Sequence[str], records: Sequence[dict[str, Any]]
) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "bfcl.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    md = out_dir / "bfcl.md"
    md.write_text(markdown(data, header), encoding="utf-8")
    with (out_dir / "bfcl_entries.jsonl").open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return md


def merge_results(dirs: Sequence[Path], rename: dict[str, str] | None = None) -> tuple[dict[str, Any], list[Any]]:
    """One table from runs split over processes or settings: each DIR's bfcl.json and bfcl_entries.jsonl, systems
    renamed by `rename` ({"DIR:system": "new name"} or {"system": "new name"}), counts added per category."""
    rename = rename or {}
    systems: dict[str, dict[str, dict[str, int]]] = {}
    records: list[Any] = []
    split, limit = None, None
    for folder in dirs:
        data = json.loads((folder / "bfcl.json").read_text(encoding="utf-8"))
        split, limit = data["split"], data["limit"]
        names = {s: rename.get(f"{folder}:{s}", rename.get(s, s)) for s in data["systems"]}
        for system, categories in data["systems"].items():
            table = systems.setdefault(names[system], {})
            for category, counts in categories.items():
                cell = table.setdefault(category, {"correct": 0, "n": 0})
                cell["correct"] += counts["correct"]
                cell["n"] += counts["n"]
        for line in (folder / "bfcl_entries.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            records.append({**record, "system": names.get(record["system"], record["system"])})
    return {"systems": systems, "split": split, "limit": limit}, records


# -- running ------------------------------------------------------------------------------------------------


def _shown(calls: list[dict[str, dict[str, Any]]]) -> str:
    if not calls:
        return "no call"
    return "; ".join(f"{name}({json.dumps(args, ensure_ascii=False)})" for call in calls for name, args in call.items())


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.bfcl", description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), default="test")
    parser.add_argument("--limit", type=int, help="first N entries of the split per category (default: all)")
    parser.add_argument(
        "--skip", type=int, default=0, help="leave out the first N entries of the split (a fresh, unseen slice)"
    )
    known = (*CATEGORIES, *EXTRA_CATEGORIES)
    parser.add_argument("--categories", default=",".join(CATEGORIES), help=f"of: {', '.join(known)}")
    parser.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS), help=f"of: {', '.join(SYSTEM_NAMES)}")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR)
    parser.add_argument("--model", help="GGUF path (default: the registry's default model)")
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=256, help="per answer (agentcore's default)")
    parser.add_argument("--ids", type=Path, help="a file of entry ids, one a line: only those entries of the split")
    parser.add_argument("--merge", nargs="+", type=Path, metavar="DIR", help="only combine these runs' results")
    parser.add_argument("--rename", action="append", default=[], metavar="[DIR:]SYSTEM=NAME", help="with --merge")
    args = parser.parse_args(list(argv))
    args.categories = [c.strip() for c in args.categories.split(",") if c.strip()]
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [c for c in args.categories if c not in known] + [s for s in args.systems if s not in SYSTEM_NAMES]
    if unknown or not args.categories or not args.systems:
        parser.error(f"unknown or no categories/systems: {', '.join(unknown) or '(none)'}")
    if any(map(is_parallel, args.categories)) and set(args.systems) - set(PARALLEL_SYSTEMS):
        parser.error(f"the parallel categories run on {', '.join(PARALLEL_SYSTEMS)} only")
    if "bare-loop" in args.systems and not all(map(is_parallel, args.categories)):
        parser.error("bare-loop runs the parallel categories only")
    if args.skip < 0:
        parser.error("--skip must be at least 0")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    return args


def rows(systems: Sequence[str]) -> list[str]:
    """The systems run, each followed by the rows derived from its replies."""
    return [name for s in systems for name in (s, *(d for d, base in DERIVED.items() if base == s))]


def record(system: str, entry: Entry, answer: Any, verdict: tuple[bool, str | None], calls: Any) -> dict[str, Any]:
    ok, why = verdict
    return {
        "system": system, "category": entry.category, "id": entry.id, "ok": ok, "checker": why,
        "question": entry.messages[-1].get("content"), "expected": entry.ground_truth, "produced": calls,
        "raw": answer.raw, "error": answer.error, "seconds": round(answer.seconds, 2),
        "prompt_tokens": answer.prompt_tokens,
    }  # fmt: skip


def run_entries(
    bfcl: Bfcl, chosen: dict[str, list[Entry]], systems: Sequence[str], answer: Any
) -> tuple[dict[str, dict[str, dict[str, int]]], list[dict[str, Any]]]:
    """Every entry on every system (interleaved entry by entry), scored; progress on stderr."""
    from bench.bfcl_systems import parse_lenient

    scores = empty_scores(rows(systems), list(chosen))
    records: list[dict[str, Any]] = []
    for category, entries in chosen.items():
        for index, entry in enumerate(entries, 1):
            for system in systems:
                reply = answer(system, entry)
                readings = [(system, reply.calls)]
                readings += [(d, parse_lenient(reply.raw)) for d, base in DERIVED.items() if base == system]
                for name, calls in readings:
                    ok, why = score(bfcl, entry, calls)
                    scores[name][category]["n"] += 1
                    scores[name][category]["correct"] += ok
                    records.append(record(name, entry, reply, (ok, why), calls))
                    error = f" [{reply.error}]" if reply.error else ""
                    verdict = "ok" if ok else "WRONG"
                    line = f"[{name}] {entry.id} ({index}/{len(entries)}) {verdict} {reply.seconds:.1f}s:"
                    print(f"{line} {_shown(calls)[:160]}{error}", file=sys.stderr, flush=True)
    return scores, records


def _asked(entry: Entry, args: argparse.Namespace) -> tuple[Any, ...]:
    return entry.specs(), entry.messages, args.max_tokens


def relevance_answer(model: Any, relevance: Any, entry: Entry, args: argparse.Namespace, plain: Any) -> Any:
    """agentcore with ToolRelevance. Where the policy keeps the tools the model gets the very request plain
    agentcore got (same prompt, greedy), so that system's reply, when it ran, is this one's too."""
    from bench.bfcl_systems import agentcore_answer, split_messages

    specs = entry.specs()
    kept = max(relevance.scores(split_messages(entry.messages)[2] or " ", specs)) >= relevance.min_similarity
    if kept and plain is not None:
        return plain
    return asyncio.run(agentcore_answer(model, *_asked(entry, args), [relevance]))


def tiers_answer(model: Any, routing: Any, entry: Entry, args: argparse.Namespace, plain: Any) -> Any:
    """agentcore with RoutingPolicy's model tiers (the `agentcore+tiers` of bench-compare): an entry offering
    `TIER_TOOLS` functions or more runs on the large model. Where the router picks the small tier the model gets
    the very request plain agentcore got, so that system's reply, when it ran, is this one's too."""
    from bench.bfcl_systems import agentcore_answer, split_messages

    specs = entry.specs()
    decision = routing.router.route(split_messages(entry.messages)[2] or " ", tool_names=[s.name for s in specs])
    if decision.tier != "large" and plain is not None:
        return plain
    return asyncio.run(agentcore_answer(model, *_asked(entry, args), [routing]))


def parallel_answer(system: str, model: Any, bare: Any, entry: Entry, args: argparse.Namespace) -> Any:
    """A parallel entry's answer: agentcore and bare-loop run on after calls (bench/bfcl_parallel.py)."""
    from bench.bfcl_parallel import agentcore_calls, bare_loop_calls

    if system == "agentcore":
        return asyncio.run(agentcore_calls(model, *_asked(entry, args)))
    if system == "bare-loop":
        return bare_loop_calls(bare, entry.specs(), entry.messages)
    return bare.answer(entry.specs(), entry.messages)


def merge_main(args: argparse.Namespace, argv: Sequence[str]) -> int:
    """`--merge`: one table from earlier runs, their set-up lines kept."""
    data, records = merge_results(args.merge, dict(r.split("=", 1) for r in args.rename))
    header = [f"- merged: {', '.join(map(str, args.merge))} (`python -m bench.bfcl {shlex.join(argv)}`)"]
    for folder in args.merge:
        lines = (folder / "bfcl.md").read_text(encoding="utf-8").splitlines()
        header += [line for line in lines if line.startswith("- ")]
    print(write_results(args.out_dir, data, header, records).read_text(encoding="utf-8"))
    return 0


def chosen_entries(bfcl: Bfcl, args: argparse.Namespace) -> dict[str, list[Entry]]:
    """Each category's entries of the split (after --skip, up to --limit), only those in --ids when given."""
    chosen = {c: split_entries(load_entries(bfcl, c), args.split, args.limit, args.skip) for c in args.categories}
    if args.ids is not None:
        wanted = set(args.ids.read_text().split())
        chosen = {c: [e for e in entries if e.id in wanted] for c, entries in chosen.items()}
    return chosen


def run_header(
    args: argparse.Namespace, argv: Sequence[str], model_name: str, version: str, seconds: float
) -> list[str]:
    """The set-up lines of a run's bfcl.md: command, revision, date, model, split and what each system is."""
    from bench.bfcl_systems import MAX_TURNS

    return [
        f"- command: `{' '.join(['python -m bench.bfcl', *map(shlex.quote, argv)])}`",
        f"- revision: {revision()}",
        f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; {seconds:.0f}s in all",
        f"- model: `{model_name}`, n_ctx {args.n_ctx}, {args.threads} threads, greedy, max_tokens"
        f" {args.max_tokens}; bfcl-eval {version} (data and AST checker)",
        f"- split: {args.split} ({'even' if args.split == 'dev' else 'odd'}-indexed entries),"
        f" limit {args.limit or 'none'} per category" + (f", after the first {args.skip}" if args.skip else ""),
        "- agentcore: an Agent run up to the call it would run (grammar-constrained turns; a call or answer the"
        f" loop's checks send back gets another turn, at most {MAX_TURNS}); agentcore+relevance: the same with the"
        " ToolRelevance policy (agentcore's reply reused where the policy keeps the tools: the same request);"
        " agentcore+tiers: the same with RoutingPolicy's model tiers (2+ functions: qwen2.5-coder-1.5b; agentcore's"
        " reply reused on the small tier); agentcore+tiers-first: the large model in its template's format for the"
        " first call (tool_format native-first);"
        " agentcore-native: the same run in the chat template's own tool format, the call grammar-constrained;"
        " bare: the GGUF's chat template with native tools,"
        " unconstrained, `<tool_call>` blocks parsed; bare-lenient: the same replies, JSON calls without the tags"
        " accepted too (bench/bfcl_systems.py); parallel categories: agentcore's run goes on to its end, each call"
        " answered 'done', and all its calls are the answer; bare-loop: bare-lenient in a loop the same way"
        " (bench/bfcl_parallel.py)",
    ]


def revision() -> str:
    """The checkout's short git revision, with `+changes` when the tree differs from it; `?` outside git."""
    import subprocess

    def git(*cmd: str) -> str:
        return subprocess.run(["git", *cmd], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    try:
        return git("rev-parse", "--short", "HEAD") + ("+changes" if git("status", "--porcelain", "-uno") else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.merge:
        return merge_main(args, argv)
    bfcl = load_bfcl()
    chosen = chosen_entries(bfcl, args)
    everything = [e for entries in chosen.values() for e in entries]
    wrong = check_converter(bfcl, everything)
    if wrong:
        print(
            f"warning: {len(wrong)} function docs convert unlike BFCL's convert_to_tool: {wrong[:5]}", file=sys.stderr
        )

    from agentcore.models.llamacpp import LlamaCppModel
    from agentcore.policies.relevance import ToolRelevance
    from bench.bfcl_systems import BareQwen, agentcore_answer
    from bench.harness import resolve_model
    from bench.systems.agentcore_policies import tier_policy

    model_path = resolve_model(args.model)
    model = LlamaCppModel(model_path, n_ctx=args.n_ctx, n_threads=args.threads, seed=0)
    llm = model.load()  # one Llama for both systems
    bare = BareQwen(llm, args.max_tokens) if {"bare", "bare-loop"} & set(args.systems) else None

    relevance, plain_replies = ToolRelevance(), {}
    routing = {
        s: tier_policy(model, "native-first" if s.endswith("first") else "json") for s in TIERS & set(args.systems)
    }

    def answer(system: str, entry: Entry) -> Any:
        if is_parallel(entry.category):
            return parallel_answer(system, model, bare, entry, args)
        if system == "agentcore":
            plain_replies[entry.id] = reply = asyncio.run(agentcore_answer(model, *_asked(entry, args)))
            return reply
        if system == "agentcore+relevance":
            return relevance_answer(model, relevance, entry, args, plain_replies.get(entry.id))
        if system in routing:
            return tiers_answer(model, routing[system], entry, args, plain_replies.get(entry.id))
        if system == "agentcore-native":  # the same model, the chat template's own tool format for this answer
            default, model.tool_format = model.tool_format, "native"
            try:
                return asyncio.run(agentcore_answer(model, *_asked(entry, args)))
            finally:
                model.tool_format = default
        assert bare is not None
        return bare.answer(entry.specs(), entry.messages)

    print(f"== BFCL {bfcl.version}, {args.split} split, {len(everything)} entries x {args.systems}", file=sys.stderr)
    started = time.perf_counter()
    scores, records = run_entries(bfcl, chosen, args.systems, answer)
    header = run_header(args, argv, model_path.name, bfcl.version, time.perf_counter() - started)
    md = write_results(args.out_dir, results_json(scores, args.split, args.limit), header, records)
    print(md.read_text(encoding="utf-8"))
    print(f"written: {md} (+ bfcl.json, bfcl_entries.jsonl)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
