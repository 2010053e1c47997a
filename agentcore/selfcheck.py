"""Check that llama.cpp can run on this CPU: `python -m agentcore.selfcheck [MODEL]`.

A llama-cpp-python build compiled for instructions this CPU lacks dies with SIGILL, which no `try` can catch.
So the model is loaded, and one token evaluated, in a child process; the parent turns a crash into one line.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentcore.errors import AgentcoreError

_MARKER = "selfcheck-child:"
_PORTABLE_HINT = (
    "rebuild llama-cpp-python with the portable CMAKE_ARGS in scripts/setup.sh (CMAKE_ARGS_PORTABLE, GGML_NATIVE=OFF)"
)


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    message: str
    eval_ms: float | None = None


def check(
    model_path: Path, model_name: str, *, child: Sequence[str] | None = None, timeout: float = 300
) -> CheckResult:
    """Load the model and evaluate one token in a child process. `child` replaces the child command (the model
    path is appended to it); tests use it to simulate a crash."""
    argv = [*(child or [sys.executable, "-m", "agentcore.selfcheck", "--child"]), str(model_path)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return CheckResult(
            False,
            f"selfcheck: FAILED: loading {model_name} and evaluating one token took over {timeout:.0f} s",
        )
    if done.returncode == 0:
        eval_ms = _parse_child(done.stdout)
        if eval_ms is not None:
            return CheckResult(
                True, f"selfcheck: llama.cpp evaluated a token with {model_name} ({eval_ms:.0f} ms)", eval_ms
            )
        return CheckResult(False, f"selfcheck: FAILED: the child exited 0 without a result: {_tail(done.stdout)}")
    return CheckResult(False, _explain_failure(done.returncode, done.stderr or done.stdout))


def _parse_child(stdout: str) -> float | None:
    # llama.cpp may print to stdout too, so the child's result is the line that carries our marker.
    for line in reversed(stdout.splitlines()):
        if line.startswith(_MARKER):
            value = json.loads(line.removeprefix(_MARKER))["eval_ms"]
            return float(value)
    return None


def _explain_failure(returncode: int, output: str) -> str:
    if returncode == -signal.SIGILL:
        return (
            "selfcheck: FAILED: llama.cpp died with an illegal instruction (SIGILL): this llama-cpp-python"
            f" build uses CPU instructions this machine cannot run; {_PORTABLE_HINT}"
        )
    if returncode < 0:
        name = signal.Signals(-returncode).name
        return f"selfcheck: FAILED: llama.cpp crashed with {name} while loading or evaluating; {_PORTABLE_HINT}"
    return f"selfcheck: FAILED: the llama.cpp child exited with status {returncode}: {_tail(output)}"


def _tail(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def _child(model_path: str) -> int:
    """Runs in the child: load, evaluate one token, print the timing after the marker."""
    from llama_cpp import Llama

    llm = Llama(model_path=model_path, n_ctx=64, n_threads=2, verbose=False)
    start = time.perf_counter()
    llm.eval(llm.tokenize(b"hi"))
    eval_ms = (time.perf_counter() - start) * 1000
    print(_MARKER + json.dumps({"eval_ms": eval_ms}), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agentcore.selfcheck", description=__doc__.splitlines()[0])
    parser.add_argument(
        "model", nargs="?", default=None, help="registry name or .gguf path (default: the default model)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.model)

    from agentcore.models.registry import DEFAULT_MODEL, resolve_model

    spec = args.model or DEFAULT_MODEL
    try:
        resolved = resolve_model(spec, progress=lambda msg: print(f"selfcheck: {msg}", file=sys.stderr))
    except AgentcoreError as exc:
        print(f"selfcheck: FAILED: {exc}", file=sys.stderr)
        return 1
    if resolved.path is None:
        print(
            f"selfcheck: FAILED: {spec} is a server URL; the self-check needs a local GGUF model",
            file=sys.stderr,
        )
        return 1
    result = check(resolved.path, resolved.name)
    print(result.message, file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
