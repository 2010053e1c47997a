"""The harness's end of a worker subprocess (bench/systems/worker.py): start it, hand it one task, read one result.

Systems are interleaved task by task rather than run one after another, so that a machine whose load drifts
(other jobs starting and stopping) slows every system alike. A worker starts on its first task, so model loads
never overlap another system's work.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from bench.suite import Task
from bench.systems.common import Settings

ROOT = Path(__file__).resolve().parent.parent
LOAD_ALLOWANCE = 300.0  # seconds for loading a model (or starting a server) before the first result
# llama.cpp's CPU backend here is built with OpenMP. With libgomp's default spin-waiting, a busy machine made
# completions called from a process's main thread 3-15x slower (wall and CPU alike; measured: 2.4 s vs 7-35 s),
# while calls from a worker thread (agentcore's to_thread) were not hit. "passive" made both 2.4 s. The raw loop
# and the llama.cpp server call from the main thread, so every worker and its children get the same setting.
WORKER_ENV = {"OMP_WAIT_POLICY": "passive"}


def worker_env() -> dict[str, str]:
    """The environment of every worker: this one, plus WORKER_ENV where the caller has not set those."""
    return {**WORKER_ENV, **os.environ}


class WorkerFailedError(RuntimeError):
    pass


class Worker:
    """One system's subprocess. `run(task)` returns the result dict; after a failure the worker is dead."""

    def __init__(self, name: str, settings: Settings, settings_path: Path) -> None:
        self.name = name
        self.settings = settings
        self.settings_path = settings_path
        self.results: list[dict[str, Any]] = []
        self.error: str | None = None
        self.load_avg: list[float] = []
        self._process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self._process is None:
            command = [sys.executable, "-m", "bench.systems.worker", self.name, str(self.settings_path)]
            self._process = subprocess.Popen(
                command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                start_new_session=True,  # its own process group: a kill reaches the llama.cpp server it started
                env=worker_env(),
            )  # fmt: skip
        return self._process

    def run(self, task: Task) -> dict[str, Any] | None:
        """The result of `task`, or None when this worker has failed (now or before)."""
        if self.error is not None:
            return None
        first = self._process is None
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        self.load_avg.append(os.getloadavg()[0])
        try:
            process.stdin.write(json.dumps(task.to_json()) + "\n")
            process.stdin.flush()
            message = _read(process.stdout, self.settings.timeout + 60 + (LOAD_ALLOWANCE if first else 0))
        except (OSError, WorkerFailedError) as exc:
            self.error = f"worker failed on task {task.id}: {exc}"
            self._kill()
            return None
        if "result" not in message:  # the system gave up (its done line says why)
            self.error = message.get("error") or f"worker stopped at task {task.id}"
            self._kill()
            return None
        self.results.append(message["result"])
        return dict(message["result"])

    def finish(self) -> dict[str, Any]:
        """Close stdin, collect the final report: results, facts, error, peak RSS."""
        done: dict[str, Any] = {}
        process = self._process
        if process is not None and self.error is None:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.close()
            try:
                done = _read(process.stdout, 60)
                process.wait(30)
            except (WorkerFailedError, subprocess.TimeoutExpired) as exc:
                self.error = f"worker did not finish cleanly: {exc}"
        self._kill()
        info = dict(done.get("info") or {})
        if self.load_avg:
            info["load_avg"] = [round(min(self.load_avg), 1), round(max(self.load_avg), 1)]
        return {
            "results": self.results,
            "info": info,
            "error": self.error or done.get("error"),
            "peak_rss_mb": done.get("peak_rss_mb", 0.0),
            "children_peak_rss_mb": done.get("children_peak_rss_mb", 0.0),
        }

    def _kill(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _read(stream: IO[str], timeout: float) -> dict[str, Any]:
    """One protocol line, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise WorkerFailedError(f"no answer within {timeout:.0f}s")
        ready, _, _ = select.select([stream], [], [], min(left, 5.0))
        if ready:
            line = stream.readline()
            if not line:
                raise WorkerFailedError("the worker exited (its traceback is above)")
            data: dict[str, Any] = json.loads(line)
            return data
