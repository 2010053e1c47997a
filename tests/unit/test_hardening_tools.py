"""Hardening of the built-in tools: bounded calculator work, symlink-safe file tools, port-aware HTTP
allow-list, and unknown tool arguments reported to the model."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.context import RunContext
from agentcore.errors import ModelRetry, UserError
from agentcore.testing import Heartbeat, ScriptedModel, call
from agentcore.tools.builtin import calculator, http_toolset, workspace_toolset
from agentcore.tools.builtin.calculator import evaluate
from agentcore.tools.builtin.files import MAX_READ_CHARS, MAX_WRITE_CHARS, Workspace
from agentcore.tools.builtin.http import AllowEntry, check_url, normalise_allow
from agentcore.tools.function import tool

CTX: RunContext[None] = RunContext(deps=None, run_id="t", task="t")
CPU_BOUND_S = 0.5  # a correctness bound (each expression is refused or computed at once), not a benchmark


# --- calculator: no expression burns CPU ----------------------------------------------------------------------

HOSTILE = [
    "round(5, -10**8)",
    "round(5, -2*10**7)",
    "round(5.5, 10**8)",
    "round(10**999, -10**6)",
    "factorial(10**6)",
    "comb(10**6, 5*10**5)",
    "pow(10, 10**8)",
    "1 << 10**8",
    "(10**999) << 10**6",
    "10**10**10",
    "9**9**9",
    "2**2**2**2**2**2",
    "(10**999)**2",
    "(-10**999)**(10**999)",
    "2 ** (10**999)",
    "2.0 ** (10**999)",
    "1.0000001 ** (10**300)",
    "(10**999) * (10**999) * (10**999)",
    "(10**600) * (10**600)",
    "(10**999) // 3 * (10**999)",
    "sqrt(10**999) + exp(10**999)",
    "log(10**999, 10**999) * 10**999 * 10**999",
    "max(" + ", ".join(["9**999"] * 40) + ")",
    "-" * 490 + "1",
    "(" * 240 + "1" + ")" * 240,
    "((((((((((2**999))))))))))" * 2,
    "1" + "*99999" * 80,
    "9" * 499,
    "9" * 5000,
    "1" + "+1" * 10_000,
]


@pytest.mark.parametrize("expression", HOSTILE, ids=lambda e: e[:40])
def test_calculator_bounds_every_expression(expression: str) -> None:
    started = time.process_time()
    with contextlib.suppress(ValueError):  # refused with a message: that is the point
        evaluate(expression)
    assert time.process_time() - started < CPU_BOUND_S


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("round(5, -10**8)", r"round\(\): argument 2 must be a whole number from -1000 to 1000, not -100000000"),
        ("round(5, -2*10**7)", "whole number from -1000 to 1000"),
        ("round(3.14159, 2.5)", "whole number"),
        ("factorial(10**6)", "unknown function"),
        ("1 << 10**8", "BinOp is not allowed"),
        ("10**10**10", "digits"),
        ("(10**600) * (10**600)", "more than 1000 digits"),
        ("2 ** (10**999)", "exponent .* is too large"),
        ("min(5)", r"wrong number of arguments \(1\); it takes 2 to 100"),
        ("sqrt(1, 2)", r"wrong number of arguments \(2\); it takes 1"),
        ("max(" + ",".join(["1"] * 101) + ")", "wrong number of arguments"),
    ],
)
async def test_calculator_refusals_are_readable(expression: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        await calculator.call({"expression": expression}, CTX)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("round(1234.5678, -2)", "1200"),
        ("round(1234, -2)", "1200"),
        ("round(5, -1000)", "0"),
        ("round(2.5)", "2"),
        ("2 ** 3000 // 2 ** 2999", "2"),
        ("(10**400) * (10**400) // 10**799", "10"),
        ("min(3, 1, 2) + max(1.5, 2)", "3"),
        ("0.5 ** 10000", "0"),
        ("1 ** (10**999)", "1"),
    ],
)
async def test_calculator_bounds_keep_ordinary_arithmetic(expression: str, expected: str) -> None:
    assert await calculator.call({"expression": expression}, CTX) == expected


async def test_calculator_in_a_run_keeps_the_event_loop_responsive() -> None:
    # One big-integer operation holds the GIL: before the bounds, this froze the event loop for 19 s.
    started = time.perf_counter()
    async with Heartbeat(0.001) as beat:
        for expression in ["round(5, -2*10**7)", "9**9**9", "round(5, -10**8)"]:
            with pytest.raises(ValueError):
                await calculator.call({"expression": expression}, CTX)
        await asyncio.sleep(0.01)
    assert time.perf_counter() - started < 5 and beat.ticks > 0


# --- unknown tool arguments ---------------------------------------------------------------------------------


@tool
def area(width: float, height: float = 1.0) -> float:
    """Area of a rectangle.

    Args:
        width: Width.
        height: Height.
    """
    return width * height


@tool
def ping() -> str:
    """Answer pong."""
    return "pong"


async def test_unknown_arguments_become_model_retry() -> None:
    with pytest.raises(ModelRetry, match=r"area has no argument 'depth'; its arguments are width, height"):
        await area.call({"width": 2, "depth": 3}, CTX)
    with pytest.raises(ModelRetry, match=r"'units', 'x'"):
        await area.call({"width": 2, "units": "m", "x": 1}, CTX)
    with pytest.raises(ModelRetry, match="ping has no argument 'loud'; it takes no arguments"):
        await ping.call({"loud": True}, CTX)
    with pytest.raises(ModelRetry, match="no argument 'precision'; its arguments are expression"):
        await calculator.call({"expression": "1/3", "precision": 2}, CTX)
    assert await area.call({"width": 2, "height": 3}, CTX) == 6


async def test_unknown_argument_reaches_the_model_and_is_retried() -> None:
    model = ScriptedModel([call("area", width=2, depth=3), call("area", width=2, height=3), "6"])
    result = await Agent(model, tools=[area]).run("area of 2 by 3")
    assert result.output == "6"
    problem = result.steps[0].result
    assert problem is not None and "no argument 'depth'" in problem
    assert "no argument 'depth'" in model.requests[1].messages[-1].content


# --- files: no symlink is followed out of the workspace ------------------------------------------------------


@pytest.fixture
def space(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "real").mkdir(parents=True)
    (root / "real" / "f.txt").write_text("inside", encoding="utf-8")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "f.txt").write_text("SECRET", encoding="utf-8")
    (tmp_path / "out" / "SECRET.key").write_text("", encoding="utf-8")  # shows if a listing escapes
    return root


async def test_symlinks_that_point_outside_are_refused(space: Path) -> None:
    outside = space.parent / "out"
    (space / "abs").symlink_to(outside, target_is_directory=True)
    (space / "rel").symlink_to("../out", target_is_directory=True)
    (space / "file").symlink_to(outside / "f.txt")
    (space / "real" / "up").symlink_to("../../out/f.txt")
    (space / "hop").symlink_to("real/up")
    tools = workspace_toolset(space)
    for path in ["abs/f.txt", "rel/f.txt", "file", "real/up", "hop", "./real/../rel/f.txt"]:
        with pytest.raises(ValueError, match="outside the workspace"):
            await tools.call_tool("read_file", {"path": path}, CTX)
        with pytest.raises(ValueError, match="outside the workspace"):
            await tools.call_tool("write_file", {"path": path, "content": "pwned"}, CTX)
    for path in ["abs", "rel"]:
        with pytest.raises(ValueError, match="outside the workspace"):
            await tools.call_tool("list_files", {"path": path}, CTX)
    assert (outside / "f.txt").read_text(encoding="utf-8") == "SECRET"
    assert sorted(p.name for p in outside.iterdir()) == ["SECRET.key", "f.txt"]


async def test_symlinks_inside_the_workspace_still_work(space: Path) -> None:
    (space / "alias").symlink_to("real", target_is_directory=True)
    (space / "abs.txt").symlink_to(space / "real" / "f.txt")
    (space / "real" / "self").symlink_to("../real/f.txt")
    tools = workspace_toolset(space)
    for path in ["alias/f.txt", "abs.txt", "real/self", "alias/../real/f.txt", str(space / "alias" / "f.txt")]:
        assert await tools.call_tool("read_file", {"path": path}, CTX) == "inside"
    assert await tools.call_tool("write_file", {"path": "alias/new/g.txt", "content": "g"}, CTX) == (
        "wrote 1 characters to real/new/g.txt"
    )
    assert (space / "real" / "new" / "g.txt").read_text(encoding="utf-8") == "g"
    assert await tools.call_tool("list_files", {"path": "alias"}, CTX) == "f.txt\nnew/\nself"


async def test_symlink_loops_and_special_files_fail_fast(space: Path) -> None:
    (space / "a").symlink_to("b")
    (space / "b").symlink_to("a")
    os.mkfifo(space / "pipe")
    tools = workspace_toolset(space)
    with pytest.raises(ValueError, match="too many symbolic links"):
        await tools.call_tool("read_file", {"path": "a"}, CTX)
    with pytest.raises(ValueError, match="not a regular file"):
        await asyncio.wait_for(tools.call_tool("read_file", {"path": "pipe"}, CTX), 5)
    with pytest.raises(NotADirectoryError, match="is a file, not a folder"):
        await tools.call_tool("read_file", {"path": "real/f.txt/x"}, CTX)


# Runs in another process, as the attacker would: `d` is a real folder or a symlink to `out`, in turn. The
# swap is atomic where the C library has renameat2 (Linux), so `d` always exists and the race is tight.
_SWAPPER = """
import ctypes, os, sys, time
ws, out, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
d, real, link = os.path.join(ws, "d"), os.path.join(ws, "real"), os.path.join(ws, "link")
os.symlink(out, link)
os.rename(real, d)
renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
def exchange():
    if renameat2 is None or renameat2(-100, d.encode(), -100, link.encode(), 2) != 0:  # AT_FDCWD, RENAME_EXCHANGE
        os.rename(d, real); os.rename(link, d); os.rename(d, link); os.rename(real, d)
print("ready", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    exchange()
if os.path.islink(d):
    exchange()
"""


def test_swapping_a_folder_for_a_symlink_never_escapes(space: Path) -> None:
    # The operations behind read_file and list_files, called directly: many more tries per second than through
    # the async tool API, so that the old check-then-open code lost this race in every run.
    workspace = Workspace(space, MAX_READ_CHARS, MAX_WRITE_CHARS)
    results: list[str] = []
    args = [sys.executable, "-c", _SWAPPER, str(space), str(space.parent / "out"), "1.5"]
    with subprocess.Popen(args, stdout=subprocess.PIPE, text=True) as swapper:
        assert swapper.stdout is not None and swapper.stdout.readline() == "ready\n"
        while swapper.poll() is None:
            for operation, path in [(workspace.read, "d/f.txt"), (workspace.listing, "d")]:
                # Missing, or changed while opened: refusing is fine, escaping is not.
                with contextlib.suppress(OSError, ValueError):
                    results.append(operation(path))
    assert swapper.returncode == 0
    assert not any("SECRET" in result for result in results)  # neither out/f.txt nor the listing of out/
    assert "inside" in results  # reads did succeed during the race


# --- http: ports are part of the allow-list -----------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        server: Any = self.server
        server.paths.append(self.path)
        if self.path == "/to-other":
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{server.other_port}/secret")
            body = b""
        else:
            self.send_response(200)
            body = f"port {server.server_port} {self.path}".encode()
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def servers() -> Iterator[tuple[Any, Any]]:
    pair: list[Any] = []
    threads = []
    for _ in range(2):
        httpd: Any = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        httpd.paths = []
        pair.append(httpd)
        threads.append(threading.Thread(target=httpd.serve_forever, daemon=True))
    pair[0].other_port, pair[1].other_port = pair[1].server_port, pair[0].server_port
    for thread in threads:
        thread.start()
    yield pair[0], pair[1]
    for httpd, thread in zip(pair, threads, strict=True):
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


async def test_redirect_to_another_port_is_refused(servers: tuple[Any, Any]) -> None:
    first, second = servers
    a, b = first.server_port, second.server_port
    tools = http_toolset([f"127.0.0.1:{a}"])
    with pytest.raises(ValueError, match=rf"redirect .* refused: port {b} of host '127.0.0.1' is not in the allow"):
        await tools.call_tool("http_get", {"url": f"http://127.0.0.1:{a}/to-other"}, CTX)
    with pytest.raises(ValueError, match=f"port {b} of host"):
        await tools.call_tool("http_get", {"url": f"http://127.0.0.1:{b}/secret"}, CTX)
    assert first.paths == ["/to-other"] and second.paths == []
    both = http_toolset([f"127.0.0.1:{a}", f"127.0.0.1:{b}"])
    text = await both.call_tool("http_get", {"url": f"http://127.0.0.1:{a}/to-other"}, CTX)
    assert text == f"HTTP 200 OK\nport {b} /secret"


async def test_host_without_port_allows_only_the_default_port(servers: tuple[Any, Any]) -> None:
    first, _ = servers
    tools = http_toolset(["127.0.0.1"])
    with pytest.raises(ValueError, match=f"port {first.server_port} of host '127.0.0.1' is not in the allow-list"):
        await tools.call_tool("http_get", {"url": f"http://127.0.0.1:{first.server_port}/x"}, CTX)
    assert first.paths == []
    allow = normalise_allow(["example.org", ".docs.test:8443"])
    assert check_url("http://example.org/", allow).host == "example.org"
    assert check_url("https://example.org:443/", allow).host == "example.org"
    assert check_url("https://a.docs.test:8443/", allow).port == 8443
    for url in ["http://example.org:443/", "https://example.org:8443/", "https://a.docs.test/"]:
        with pytest.raises(ValueError, match=r"port \d+ of host .* is not in the allow-list"):
            check_url(url, allow)


def test_allow_list_entries_with_ports() -> None:
    assert normalise_allow(["Example.org.:8080", "[::1]:8080", "::1", "[::1]", " .Example.org "]) == (
        AllowEntry("example.org", 8080),
        AllowEntry("::1", 8080),
        AllowEntry("::1"),
        AllowEntry("::1"),
        AllowEntry(".example.org"),
    )
    assert str(AllowEntry("::1", 8080)) == "[::1]:8080" and str(AllowEntry("a.test")) == "a.test"
    for bad in ["example.org:", "example.org:0", "example.org:99999", "[notip]:80", "http://x", "a:b:c", "h:80:80"]:
        with pytest.raises(UserError):
            normalise_allow([bad])
