"""Numbers per system from the workers' reports, and the markdown and PNG written to bench/results/."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.suite import SPLITS, Task, families_of
from bench.systems.common import TaskResult

BASELINE = "agentcore"


@dataclass(frozen=True, slots=True)
class SystemRun:
    """One system's worker report."""

    name: str
    results: list[TaskResult]
    info: dict[str, Any]
    error: str | None
    peak_rss_mb: float
    children_peak_rss_mb: float

    @classmethod
    def from_report(cls, name: str, report: dict[str, Any]) -> SystemRun:
        results = [TaskResult.from_json(item) for item in report.get("results", [])]
        return cls(
            name,
            results,
            report.get("info") or {},
            report.get("error"),
            float(report.get("peak_rss_mb", 0.0)),
            float(report.get("children_peak_rss_mb", 0.0)),
        )


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def stats(run: SystemRun, families: Sequence[str]) -> dict[str, float]:
    """Everything the tables show for one system; rates in 0..1, times in seconds, counts per task."""
    rs = run.results
    out: dict[str, float] = {
        "tasks": len(rs),
        "success": _mean([float(r.ok) for r in rs]),
        "wall_median": percentile([r.wall_s for r in rs], 50),
        "wall_p90": percentile([r.wall_s for r in rs], 90),
        "cpu_median": percentile([r.cpu_s for r in rs], 50),
        "calls": _mean([r.calls for r in rs]),
        "evaluated": _mean([r.prompt_tokens - r.cached_tokens for r in rs]),
        "cached": _mean([r.cached_tokens for r in rs]),
        "generated": _mean([r.generated_tokens for r in rs]),
        "model_mean": _mean([r.model_s for r in rs]),
        "overhead_median": percentile([r.overhead_s for r in rs], 50),
        "overhead_mean": _mean([r.overhead_s for r in rs]),
        "rss_mb": run.peak_rss_mb + run.children_peak_rss_mb,
        "load_s": float(run.info.get("load_s", math.nan)),
    }
    if run.info.get("cache_unreported"):  # the backend cannot tell cached from evaluated prompt tokens
        out["evaluated"] = out["cached"] = math.nan
    for family in families:
        in_family = [float(r.ok) for r in rs if r.family == family]
        out[f"success:{family}"] = _mean(in_family)
    return out


def _pct(value: float) -> str:
    return "–" if math.isnan(value) else f"{value * 100:.0f}%"


def _num(value: float, digits: int = 1) -> str:
    return "–" if math.isnan(value) else f"{value:.{digits}f}"


def _ratio(value: float, base: float) -> str:
    if math.isnan(value) or math.isnan(base) or base == 0:
        return "–"
    return f"{value / base:.2f}×"


def summary_table(runs: Sequence[SystemRun], table: dict[str, dict[str, float]], families: Sequence[str]) -> str:
    head = ["system", "success", *families, "wall med s", "wall p90 s", "cpu med s", "calls/task"]
    head += ["prompt eval/task", "cached/task", "gen/task", "overhead med ms", "overhead mean ms"]
    head += ["peak RSS MB", "load s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run in runs:
        s = table[run.name]
        cells = [run.name, _pct(s["success"]), *(_pct(s[f"success:{f}"]) for f in families)]
        cells += [_num(s["wall_median"], 2), _num(s["wall_p90"], 2), _num(s["cpu_median"], 2), _num(s["calls"])]
        cells += [_num(s["evaluated"], 0), _num(s["cached"], 0), _num(s["generated"], 0)]
        cells += [_num(s["overhead_median"] * 1000), _num(s["overhead_mean"] * 1000)]
        cells += [_num(s["rss_mb"], 0), _num(s["load_s"])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratio_table(runs: Sequence[SystemRun], table: dict[str, dict[str, float]]) -> str:
    if BASELINE not in table:
        return f"(no {BASELINE} run, so no ratios)"
    base = table[BASELINE]
    keys = [("wall_median", "wall med"), ("wall_p90", "wall p90"), ("cpu_median", "cpu med"), ("calls", "calls")]
    keys += [("evaluated", "prompt eval"), ("generated", "generated"), ("overhead_mean", "overhead mean")]
    keys += [("rss_mb", "peak RSS")]
    head = ["system", "success Δ", *(label for _, label in keys)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run in runs:
        s = table[run.name]
        delta = (s["success"] - base["success"]) * 100
        cells = [run.name, "–" if math.isnan(delta) else f"{delta:+.0f} pt"]
        cells += [_ratio(s[key], base[key]) for key, _ in keys]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _median_ratio(mine: Sequence[TaskResult], base: Sequence[TaskResult]) -> str:
    if not mine:
        return "–"
    return _ratio(percentile([r.wall_s for r in mine], 50), percentile([r.wall_s for r in base], 50))


def paired_table(runs: Sequence[SystemRun], families: Sequence[str]) -> str:
    """Wall-time ratios on matched tasks, so that doing more work (a chain's second call) and being slower at the
    same work can be told apart: per family, on tasks where both systems made the same number of model calls,
    and on tasks both solved."""
    by_name = {run.name: {r.id: r for r in run.results} for run in runs}
    if BASELINE not in by_name:
        return f"(no {BASELINE} run, so no ratios)"
    base = by_name[BASELINE]
    head = ["system", *(f"{f} wall med" for f in families), "same calls: n, wall med", "both solved: n, wall med"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run in runs:
        if run.name == BASELINE:
            continue
        pairs = [(r, base[r.id]) for r in run.results if r.id in base]
        cells = [run.name]
        for family in families:
            chosen = [p for p in pairs if p[0].family == family]
            cells.append(_median_ratio([p[0] for p in chosen], [p[1] for p in chosen]))
        for keep in (lambda a, b: a.calls == b.calls, lambda a, b: a.ok and b.ok):
            chosen = [p for p in pairs if keep(*p)]
            cells.append(f"{len(chosen)}, {_median_ratio([p[0] for p in chosen], [p[1] for p in chosen])}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def task_table(tasks: Sequence[Task], runs: Sequence[SystemRun]) -> str:
    """One row per task: per system pass/fail, model calls and wall time."""
    head = ["task", "family", *(run.name for run in runs)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    by_system = {run.name: {r.id: r for r in run.results} for run in runs}
    for task in tasks:
        cells = [task.id, task.family]
        for run in runs:
            r = by_system[run.name].get(task.id)
            cells.append("–" if r is None else f"{'✓' if r.ok else '✗'} {r.calls} calls {r.wall_s:.1f}s")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def failures(tasks: Sequence[Task], runs: Sequence[SystemRun], limit: int = 400) -> str:
    """Each failed task per system: what was expected, what came out, and the tool calls made."""
    expected = {task.id: task.check for task in tasks}
    parts = []
    for run in runs:
        failed = [r for r in run.results if not r.ok]
        if not failed:
            continue
        parts.append(f"**{run.name}**\n")
        for r in failed:
            check = expected.get(r.id, {})
            said = (r.output if r.output is not None else f"[{r.status}] {r.error}")[:limit]
            calls = " ; ".join(r.trace)[:limit] or "no tool calls"
            parts.append(f"- `{r.id}` expected {check.get('kind')} `{check.get('value')}`, got `{said}`; {calls}")
        parts.append("")
    return "\n".join(parts) or "None."


def _score(results: Sequence[TaskResult]) -> str:
    """Success as "75% (6/8)", or "–" for no results."""
    if not results:
        return "–"
    solved = sum(r.ok for r in results)
    return f"{_pct(solved / len(results))} ({solved}/{len(results)})"


def split_table(tasks: Sequence[Task], runs: Sequence[SystemRun]) -> str:
    """Success per family and split, for the families whose tasks are split into dev (tuned on) and test (held
    out); tasks without a split count in both. Empty when no task has a split."""
    split_families = [f for f in families_of(tasks) if any(t.split and t.family == f for t in tasks)]
    if not split_families:
        return ""
    rows = [(family, split) for family in split_families for split in SPLITS]
    head = ["family", "split", *(run.name for run in runs)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for family, split in rows:
        ids = {t.id for t in tasks if t.family == family and t.in_split(split)}
        cells = [family, split, *(_score([r for r in run.results if r.id in ids]) for run in runs)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def class_table(tasks: Sequence[Task], runs: Sequence[SystemRun]) -> str:
    """Success per family and class (the phrasing of a compose task, the kind of a trap task), with dev and
    test apart where the family is split. Empty when no task has a class."""
    groups = list(dict.fromkeys((t.family, t.task_class) for t in tasks if t.task_class))
    if not groups:
        return ""
    head = ["family", "class", *(f"{run.name} {part}" for run in runs for part in ("dev", "test", "all"))]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for family, task_class in groups:
        members = [t for t in tasks if t.family == family and t.task_class == task_class]
        cells = [family, str(task_class)]
        for run in runs:
            for split in (*SPLITS, None):
                ids = {t.id for t in members if t.in_split(split)}
                cells.append(_score([r for r in run.results if r.id in ids]))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def chart(path: Path, runs: Sequence[SystemRun], table: dict[str, dict[str, float]], title: str) -> None:
    """Success rate against median wall time per task; a line to the p90 shows the tail."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for run in runs:
        s = table[run.name]
        if math.isnan(s["wall_median"]):
            continue
        y = s["success"] * 100
        (point,) = ax.plot([s["wall_median"]], [y], "o", markersize=9, label=run.name)
        ax.plot([s["wall_median"], s["wall_p90"]], [y, y], "-", color=point.get_color(), alpha=0.5)
    ax.set_xscale("log")  # systems differ by factors, not by seconds
    ax.set_xlabel("wall time per task, s, log scale (dot: median, line to p90)")
    ax.set_ylabel("success rate, %")
    ax.set_ylim(-5, 105)
    ax.legend(loc="best", fontsize=9)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def markdown(header: str, tasks: Sequence[Task], runs: Sequence[SystemRun], png_name: str) -> str:
    families = families_of(tasks)
    table = stats_table(tasks, runs)
    problems = [f"- **{run.name}** did not finish: {run.error}" for run in runs if run.error]
    sections = [
        header,
        "## Results\n\n" + summary_table(runs, table, families),
        "Overhead = wall time − time inside llama.cpp's `create_completion` − tool time (in-process systems); for"
        " agentcore-http the model time is the HTTP wait, so server-side work is not overhead. Prompt eval/task"
        " counts tokens evaluated (not served from the KV cache); llama-cpp-python's server does not report"
        " cache reuse, so both token columns read – for it. CPU and peak RSS include the server process for"
        " agentcore-http.",
        f"## Ratios against {BASELINE} (same run)\n\n" + ratio_table(runs, table),
        f"Matched tasks, wall time against {BASELINE}'s on the same tasks:\n\n" + paired_table(runs, families),
        f"![success vs wall time]({png_name})",
        *_breakdowns(tasks, runs),
        "## Per task\n\n" + task_table(tasks, runs),
        "## Failures\n\n" + failures(tasks, runs),
    ]
    if problems:
        sections.insert(1, "## Problems\n\n" + "\n".join(problems))
    return "\n\n".join(sections) + "\n"


def _breakdowns(tasks: Sequence[Task], runs: Sequence[SystemRun]) -> list[str]:
    """The split and class sections, only for task sets that have splits or classes (the shipped 48 have none)."""
    sections = []
    if by_split := split_table(tasks, runs):
        sections.append("## By split (dev: tuned on; test: held out)\n\n" + by_split)
    if by_class := class_table(tasks, runs):
        sections.append("## By class\n\n" + by_class)
    return sections


def stats_table(tasks: Sequence[Task], runs: Sequence[SystemRun]) -> dict[str, dict[str, float]]:
    families = families_of(tasks)
    return {run.name: stats(run, families) for run in runs}
