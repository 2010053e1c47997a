"""Hardening on the real model: load failures and bad flags are one line, a cancelled call frees the model within
moments (during the prompt and during generation), and Ctrl-C ends the CLI promptly."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest
from agentcore.models.llamacpp import LlamaCppModel

pytestmark = pytest.mark.real_model

EXE = Path(sys.executable).parent / "agentcore"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "AGENTCORE_BLOCK_REAL_MODELS"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=300, check=False, env=_env())


def _long_text(tag: str, lines: int = 120) -> str:
    """About 20 tokens a line, different for each tag (so no KV cache serves it)."""
    return "\n".join(
        f"{tag} record {i}: sensor {i * 7 % 13} read {i * 31 % 97} units at hour {i % 24}." for i in range(lines)
    )


@pytest.fixture
def corrupt_gguf(tmp_path: Path) -> Path:
    path = tmp_path / "corrupt.gguf"
    path.write_bytes(b"GGUF" + os.urandom(4096))
    return path


def test_a_corrupt_gguf_is_one_error_line(corrupt_gguf: Path) -> None:
    done = _cli("run", "--model", str(corrupt_gguf), "hi")
    assert done.returncode != 0 and done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("agentcore: error: llama.cpp could not load") and str(corrupt_gguf) in lines[-1]
    assert len(lines) <= 2  # at most the "loading model" progress line before it


def test_a_corrupt_gguf_raises_a_model_error(corrupt_gguf: Path) -> None:
    from agentcore.errors import ModelUnavailableError

    with pytest.raises(ModelUnavailableError, match="corrupt") as caught:
        LlamaCppModel(corrupt_gguf).load()
    assert isinstance(caught.value, ModelError)


def test_a_negative_n_ctx_is_one_error_line(default_model_path: str) -> None:
    done = _cli("run", "--model", default_model_path, "--n-ctx", "-5", "hi")
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "agentcore: error: --n-ctx must be a positive number of tokens (e.g. 4096), got -5"
    ]


def _free(model: LlamaCppModel) -> bool:
    """Whether the model's lock can be taken (an RLock: released by the thread that took it)."""
    if not model._lock.acquire(timeout=60):
        return False
    model._lock.release()
    return True


async def _lock_free_after_cancel(model: LlamaCppModel, request: ModelRequest, after: float) -> float:
    """Cancel `request` `after` seconds into it; how long until the model's lock is free again."""
    call = asyncio.create_task(model.complete(request))
    await asyncio.sleep(after)
    assert not call.done(), "the call finished before it could be cancelled"
    call.cancel()
    cancelled = time.perf_counter()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert await asyncio.to_thread(_free, model)
    return time.perf_counter() - cancelled


async def test_a_cancelled_generation_frees_the_model_at_the_next_token(qwen: LlamaCppModel) -> None:
    messages = (Message("user", "Write a very long story about a lighthouse keeper, in many chapters."),)
    await qwen.complete(ModelRequest(messages=messages, constrain=False, max_tokens=1))  # the prompt is now cached
    request = ModelRequest(messages=messages, constrain=False, max_tokens=2000)
    assert await _lock_free_after_cancel(qwen, request, after=0.5) < 1.5
    started = time.perf_counter()  # a second call starts at once, on a consistent context
    answer = await qwen.complete(ModelRequest(messages=(Message("user", "Say OK."),), constrain=False, max_tokens=4))
    assert answer.content and time.perf_counter() - started < 30


async def test_a_cancelled_long_prompt_frees_the_model_within_moments(qwen: LlamaCppModel) -> None:
    """About 2,400 prompt tokens: tens of seconds to evaluate on two busy cores, stopped within a graph node."""
    await qwen.aload()
    request = ModelRequest(messages=(Message("user", _long_text("prefill") + "\nSummarise."),), constrain=False)
    assert await _lock_free_after_cancel(qwen, request, after=0.5) < 1.0
    answer = await qwen.complete(ModelRequest(messages=(Message("user", "Say OK."),), constrain=False, max_tokens=4))
    assert answer.content


def _popen_as_from_a_terminal(args: list[str]) -> subprocess.Popen[str]:
    """A CLI started from a terminal gets Ctrl-C. One started under a background job inherits SIGINT ignored
    (POSIX, for `cmd &` in a script; CI may run us so), and Python then never raises KeyboardInterrupt. A handled
    signal is reset to its default in the child, an ignored one is not: handle it here while the child starts."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_ends_the_cli_within_moments(default_model_path: str) -> None:
    task = _long_text("cli") + "\nWhat is the sum of all readings?"
    child = _popen_as_from_a_terminal([str(EXE), "run", "--model", default_model_path, "--threads", "2", task])
    assert child.stderr is not None
    lines: list[str] = []
    loaded = threading.Event()

    def read() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            lines.append(line)
            if line.startswith("model loaded"):
                loaded.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert loaded.wait(120), "".join(lines)
        time.sleep(1.0)  # into the first prompt's evaluation
        child.send_signal(signal.SIGINT)
        interrupted = time.perf_counter()
        code = child.wait(timeout=120)
        took = time.perf_counter() - interrupted
    finally:
        child.kill()
        child.wait()
    reader.join(5)
    assert code == 130, "".join(lines)
    assert took < 3.0, f"Ctrl-C took {took:.1f}s"
    assert lines[-1].strip() == "agentcore: interrupted" and "Traceback" not in "".join(lines)


async def test_load_model_async_loads_the_weights_with_progress(default_model_path: str) -> None:
    from agentcore.models.loader import load_model_async

    lines: list[str] = []
    model = await load_model_async(default_model_path, progress=lines.append, n_ctx=512, n_threads=2)
    assert isinstance(model, LlamaCppModel) and model.loaded
    assert lines[0].startswith("loading model") and lines[-1].startswith("model loaded in")
    assert await load_model_async(default_model_path, n_ctx=512, n_threads=2) is model  # shared, loaded once
