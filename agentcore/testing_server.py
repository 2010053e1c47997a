"""Start and stop a llama.cpp HTTP server (llama-cpp-python's `python -m llama_cpp.server`) on loopback.

For tests and benchmarks of `OpenAICompatModel`. The server renders prompts with the GGUF's own chat template
(no `--chat_format`), like the in-process backend. It listens on loopback only: it has no authentication.

    with start_llama_server(path) as server:          # or: async with start_llama_server(path) as server:
        model = OpenAICompatModel(server.base_url)
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from agentcore.errors import ModelError, UserError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
SERVER_MODULES = ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings")


class LlamaServer:
    """A llama.cpp server process. Started by `start()` or on entering a `with` / `async with` block."""

    def __init__(self, model_path: Path, host: str, port: int, args: list[str], ready_timeout: float) -> None:
        self.model_path = model_path
        self.host = host
        self.port = port
        self.ready_timeout = ready_timeout
        self._args = args
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> LlamaServer:
        """Start the process and wait until it answers GET /v1/models. Idempotent."""
        if self._process is not None:
            return self
        # A file, not a pipe: a full pipe would stall the server. Closed by stop().
        self._log = tempfile.TemporaryFile()  # noqa: SIM115
        # llama.cpp's OpenMP threads spin while waiting; on a busy 2-core machine that made the server's
        # completions 3-15x slower (measured by the bench). Passive waiting costs nothing when the machine is idle.
        env = {**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "passive")}
        self._process = subprocess.Popen(self._args, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the process (kill it if it does not exit within `timeout`)."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the server's stdout and stderr."""
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(0)
        text = self._log.read().decode("utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def _wait_ready(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            code = self._process.poll()
            if code is not None:
                raise ModelError(
                    f"llama.cpp server exited with code {code} before it was ready;"
                    f" the end of its log:\n{self.log_tail()}"
                )
            if _answers(f"{self.base_url}/models"):
                return
            time.sleep(0.25)
        raise ModelError(
            f"llama.cpp server on port {self.port} not ready after {self.ready_timeout:.0f}s;"
            f" the end of its log:\n{self.log_tail()}"
        )

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def __aenter__(self) -> LlamaServer:
        return await asyncio.to_thread(self.start)  # loading the model takes seconds: keep the loop free

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await asyncio.to_thread(self.stop)


def start_llama_server(
    model_path: str | Path,
    *,
    n_ctx: int = 4096,
    n_threads: int = 2,
    n_gpu_layers: int = 0,
    host: str = "127.0.0.1",
    port: int = 0,
    ready_timeout: float = 120.0,
    extra_args: Sequence[str] = (),
) -> LlamaServer:
    """A server for `model_path`, started on entering `with`/`async with` (or by `.start()`).

    `port=0` picks a free port. `extra_args` go to the server's command line as they are.
    """
    path = Path(model_path)
    if not path.is_file():
        raise UserError(f"no such model file: {path}")
    if host not in LOOPBACK:
        raise UserError(f"the test server listens on loopback only (it has no authentication), not on {host!r}")
    missing = [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise UserError(
            f"the llama.cpp server needs {', '.join(missing)}: pip install 'agentcore[server]'"
            " (or 'llama-cpp-python[server]')"
        )
    port = port or _free_port(host)
    args = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(path),
        "--host", host,
        "--port", str(port),
        "--n_ctx", str(n_ctx),
        "--n_threads", str(n_threads),
        "--n_gpu_layers", str(n_gpu_layers),
        "--seed", "0",
        "--logits_all", "False",  # as in-process: logits of the last token only (the server's default is True)
        "--verbose", "False",
        *extra_args,
    ]  # fmt: skip
    return LlamaServer(path, host, port, args, ready_timeout)


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never via a proxy
    # URLError, connection refused, reset while starting: not ready yet
    with contextlib.suppress(OSError), opener.open(url, timeout=2) as response:
        return int(response.status) == 200
    return False
