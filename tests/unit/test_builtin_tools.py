"""Built-in tools, exercised through the public tool API the agent loop uses."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast

import pytest

from agentcore.context import RunContext
from agentcore.errors import ModelRetry, UserError
from agentcore.tools import CombinedToolset, FunctionToolset
from agentcore.tools.builtin import builtin_toolset, calculator, http_toolset, workspace_toolset
from agentcore.tools.builtin.http import is_allowed_host

CTX: RunContext[None] = RunContext(deps=None, run_id="t", task="t")


async def calc(expression: str) -> Any:
    return await calculator.call({"expression": expression}, CTX)


# --- calculator ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("2 + 3 * 4", "14"),
        ("(2 + 3) * 4", "20"),
        ("2 ** 3 ** 2", "512"),  # right-associative
        ("-3 ** 2", "-9"),  # unary minus binds looser than power
        ("10 - 4 - 3", "3"),  # left-associative chain
        ("100 / 10 / 5", "2"),
        ("7 // 2", "3"),
        ("-7 % 3", "2"),
        ("1234 * 6589", "8130826"),
        ("2 ^ 10", "1024"),
        ("6 x 7", "42"),
        ("6×7", "42"),
        ("3x(2+1)", "9"),
        ("10 ** 15 / 1", "1000000000000000"),
        ("8 ÷ 2", "4"),
        ("0.1 + 0.2", "0.3"),
        ("1 / 3", "0.3333333333"),
        ("10 / 4", "2.5"),
        ("2 ** 100", "1267650600228229401496703205376"),
        ("sqrt(16) + abs(-2)", "6"),
        ("max(1, 234) - min(5, 2)", "232"),
        ("round(3.14159, 2)", "3.14"),
        ("floor(2.7) + ceil(2.1)", "5"),
        ("exp(1) - e", "0"),
        ("round(sin(pi / 2) + cos(0), 6)", "2"),
        ("log(8, 2)", "3"),
        ("+5 - -5", "10"),
        ("899 - 0.20 * 899 = 899 - 179.8 = 719.2", "719.2"),  # working written out: the first side counts
        ("3 * 4 = 13", "12"),  # ... even where the model's own working is wrong
        ("total = 3 * 85", "255"),  # a named result: the first side that is arithmetic
    ],
)
async def test_calculator_arithmetic(expression: str, expected: str) -> None:
    assert await calc(expression) == expected


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("__import__('os').system('true')", "unknown function"),
        ("(1).real", "Attribute is not allowed"),
        ("().__class__.__bases__", "not allowed"),
        ("(lambda: 1)()", "unknown function"),
        ("lambda: 1", "Lambda is not allowed"),
        ("'a' * 3", "only numbers"),
        ("[1, 2]", "List is not allowed"),
        ("open('/etc/passwd')", "unknown function"),
        ("9 ** 9 ** 9", "digits"),
        ("10 ** 100000", "digits"),
        ("1" + "+1" * 300, "too long"),
        ("1 / 0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("1,234", "commas"),
        ("sqrt(-1)", "math domain error"),
        ("(-8) ** 0.5", "not a real number"),
        ("exp(1000)", "too large"),
        ("1e308 * 10", "not a finite number"),
        ("x + 1", "unknown name"),
        ("2 +", "cannot parse .* check brackets"),
        ("6 * (price of printer)", r"it has words \(price of printer\)\. .*get a missing value with another tool"),
        ("0.25 * price", "unknown name 'price'.*get a missing value with another tool"),
        ("", "empty"),
        ("max()", "wrong number of arguments"),
        ("round(1.5, ndigits=1)", "positional"),
        ("True + 1", "only numbers"),
        ("x = y", "is an equation; pass one side only. unknown name 'x'"),
        ("2 == 2", "Compare is not allowed"),
        ("2j", "only numbers"),
    ],
)
async def test_calculator_refuses_with_a_readable_error(expression: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        await calc(expression)


async def test_calculator_schema_and_validation() -> None:
    spec = calculator.spec()
    assert spec.name == "calculator"
    assert spec.parameters["required"] == ["expression"]
    assert spec.parameters["properties"]["expression"]["description"].startswith("The arithmetic expression")
    assert "thousands separators" in spec.description
    with pytest.raises(ModelRetry, match="expression"):
        await calculator.call({"expression": 12}, CTX)
    with pytest.raises(ModelRetry):
        await calculator.call({}, CTX)


# --- files --------------------------------------------------------------------------------------------------


@pytest.fixture
def space(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "hello.txt").write_text("hi there", encoding="utf-8")
    (root / "sub").mkdir()
    (tmp_path / "secret.txt").write_text("top secret", encoding="utf-8")
    return root


async def test_files_read_write_list(space: Path) -> None:
    tools = workspace_toolset(space)
    assert await tools.call_tool("read_file", {"path": "hello.txt"}, CTX) == "hi there"
    result = await tools.call_tool("write_file", {"path": "sub/deep/new.txt", "content": "abc"}, CTX)
    assert result == "wrote 3 characters to sub/deep/new.txt"
    assert (space / "sub" / "deep" / "new.txt").read_text(encoding="utf-8") == "abc"
    assert await tools.call_tool("list_files", {}, CTX) == "hello.txt\nsub/"
    assert await tools.call_tool("list_files", {"path": "sub/deep"}, CTX) == "new.txt"
    absolute_inside = str(space / "hello.txt")
    assert await tools.call_tool("read_file", {"path": absolute_inside}, CTX) == "hi there"


@pytest.mark.parametrize("path", ["../secret.txt", "sub/../../secret.txt", "SECRET_ABS", "/etc/passwd"])
async def test_files_refuse_paths_outside(space: Path, path: str) -> None:
    path = str(space.parent / "secret.txt") if path == "SECRET_ABS" else path
    tools = workspace_toolset(space)
    with pytest.raises(ValueError, match="outside the workspace"):
        await tools.call_tool("read_file", {"path": path}, CTX)
    with pytest.raises(ValueError, match="outside the workspace"):
        await tools.call_tool("write_file", {"path": path, "content": "pwned"}, CTX)
    assert (space.parent / "secret.txt").read_text(encoding="utf-8") == "top secret"


async def test_files_refuse_symlinks_that_escape(space: Path) -> None:
    (space / "link.txt").symlink_to(space.parent / "secret.txt")
    (space / "linkdir").symlink_to(space.parent, target_is_directory=True)
    (space / "dangling").symlink_to(space.parent / "not-yet.txt")
    (space / "inner.txt").symlink_to(space / "hello.txt")
    tools = workspace_toolset(space)
    for path in ["link.txt", "linkdir/secret.txt", "linkdir"]:
        with pytest.raises(ValueError, match="outside the workspace"):
            await tools.call_tool("read_file", {"path": path}, CTX)
    with pytest.raises(ValueError, match="outside the workspace"):
        await tools.call_tool("write_file", {"path": "dangling", "content": "x"}, CTX)
    with pytest.raises(ValueError, match="outside the workspace"):
        await tools.call_tool("list_files", {"path": "linkdir"}, CTX)
    assert not (space.parent / "not-yet.txt").exists()
    # A symlink that stays inside the workspace is fine.
    assert await tools.call_tool("read_file", {"path": "inner.txt"}, CTX) == "hi there"


async def test_files_truncation_and_caps(space: Path) -> None:
    (space / "big.txt").write_text("a" * 50, encoding="utf-8")
    tools = workspace_toolset(space, max_read_chars=20, max_write_chars=10)
    text = await tools.call_tool("read_file", {"path": "big.txt"}, CTX)
    assert text.startswith("a" * 20 + "\n[truncated")
    assert "first 20 characters of 50 bytes" in text
    with pytest.raises(ValueError, match="too long"):
        await tools.call_tool("write_file", {"path": "x.txt", "content": "b" * 11}, CTX)
    assert not (space / "x.txt").exists()
    default = workspace_toolset(space)
    (space / "huge.txt").write_text("z" * 30_000, encoding="utf-8")
    assert len(await default.call_tool("read_file", {"path": "huge.txt"}, CTX)) < 20_100


async def test_files_errors_are_readable(space: Path) -> None:
    tools = workspace_toolset(space)
    with pytest.raises(FileNotFoundError, match="list_files"):
        await tools.call_tool("read_file", {"path": "missing.txt"}, CTX)
    with pytest.raises(IsADirectoryError):
        await tools.call_tool("read_file", {"path": "sub"}, CTX)
    with pytest.raises(IsADirectoryError):
        await tools.call_tool("write_file", {"path": ".", "content": "x"}, CTX)
    with pytest.raises(NotADirectoryError):
        await tools.call_tool("list_files", {"path": "hello.txt"}, CTX)
    with pytest.raises(ValueError, match="empty"):
        await tools.call_tool("read_file", {"path": " "}, CTX)
    with pytest.raises(ModelRetry):
        await tools.call_tool("write_file", {"path": "a.txt"}, CTX)


async def test_files_read_only_and_per_workspace(space: Path, tmp_path: Path) -> None:
    read_only = workspace_toolset(space, writable=False)
    assert sorted(spec.name for spec in await read_only.list_tools()) == ["list_files", "read_file"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "hello.txt").write_text("other", encoding="utf-8")
    assert await workspace_toolset(other).call_tool("read_file", {"path": "hello.txt"}, CTX) == "other"
    assert await read_only.call_tool("read_file", {"path": "hello.txt"}, CTX) == "hi there"
    with pytest.raises(UserError, match="not an existing folder"):
        workspace_toolset(tmp_path / "nope")


# --- http ---------------------------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.server.paths.append(self.path)  # type: ignore[attr-defined]
        port = cast(ThreadingHTTPServer, self.server).server_port
        routes = {
            "/hello": (200, "hello world"),
            "/big": (200, "x" * 10_000),
            "/to-hello": (302, "/hello"),
            "/escape": (302, f"http://localhost:{port}/secret"),
            "/to-file": (302, "file:///etc/passwd"),
            "/loop": (302, "/loop"),
            "/missing": (404, "not here"),
        }
        status, body = routes.get(self.path, (404, "no route"))
        self.send_response(status)
        if status == 302:
            self.send_header("Location", body)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        data = body.encode()
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.paths = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


async def test_http_get_real_server(server: ThreadingHTTPServer) -> None:
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}"
    tools = http_toolset([f"127.0.0.1:{port}"], max_chars=100)
    assert await tools.call_tool("http_get", {"url": f"{base}/hello"}, CTX) == "HTTP 200 OK\nhello world"
    assert await tools.call_tool("http_get", {"url": f"{base}/to-hello"}, CTX) == "HTTP 200 OK\nhello world"
    big = await tools.call_tool("http_get", {"url": f"{base}/big"}, CTX)
    assert big == "HTTP 200 OK\n" + "x" * 100 + "\n[truncated to 100 characters]"
    assert (await tools.call_tool("http_get", {"url": f"{base}/missing"}, CTX)).startswith("HTTP 404")


async def test_http_redirects_cannot_escape(server: ThreadingHTTPServer) -> None:
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}"
    tools = http_toolset([f"127.0.0.1:{port}"])
    with pytest.raises(ValueError, match=r"redirect .* refused: host 'localhost' is not in the allow-list"):
        await tools.call_tool("http_get", {"url": f"{base}/escape"}, CTX)
    with pytest.raises(ValueError, match="scheme 'file'"):
        await tools.call_tool("http_get", {"url": f"{base}/to-file"}, CTX)
    with pytest.raises(ValueError, match="too many redirects"):
        await tools.call_tool("http_get", {"url": f"{base}/loop"}, CTX)
    assert "/secret" not in server.paths  # type: ignore[attr-defined]
    assert server.paths.count("/loop") == 6  # type: ignore[attr-defined]


async def test_http_refuses_before_connecting(server: ThreadingHTTPServer) -> None:
    port = server.server_address[1]
    tools = http_toolset([f"127.0.0.1:{port}", ".example.org"])
    refused = {
        f"http://localhost:{port}/hello": "not in the allow-list",
        "http://badexample.org/": "not in the allow-list",
        f"http://127.0.0.1@localhost:{port}/hello": "not in the allow-list",
        "file:///etc/passwd": "scheme 'file'",
        f"ftp://127.0.0.1:{port}/": "scheme 'ftp'",
        "127.0.0.1/hello": "scheme",
        "http:///nohost": "invalid URL|no host",
    }
    for url, message in refused.items():
        with pytest.raises(ValueError, match=message):
            await tools.call_tool("http_get", {"url": url}, CTX)
    assert server.paths == []  # type: ignore[attr-defined]


def test_http_allow_list_rules() -> None:
    allow = (".example.org", "api.test")
    assert is_allowed_host("example.org", allow)
    assert is_allowed_host("docs.Example.org.", allow)
    assert is_allowed_host("api.test", allow)
    assert not is_allowed_host("badexample.org", allow)
    assert not is_allowed_host("x.api.test", allow)
    assert not is_allowed_host("example.org.evil.com", allow)
    for bad in [[], [""], ["."], ["https://example.org"], ["example.org:"], ["user@example.org"]]:
        with pytest.raises(UserError):
            http_toolset(bad)


# --- registry -----------------------------------------------------------------------------------------------


async def test_builtin_toolset_registry(tmp_path: Path) -> None:
    only_calc = builtin_toolset(["calculator"])
    assert isinstance(only_calc, FunctionToolset)
    assert await only_calc.call_tool("calculator", {"expression": "2+2"}, CTX) == "4"
    combined = builtin_toolset("calculator, files,http", workspace=tmp_path, http_allow=["127.0.0.1"])
    assert isinstance(combined, CombinedToolset)
    names = sorted(spec.name for spec in await combined.list_tools())
    assert names == ["calculator", "http_get", "list_files", "read_file", "write_file"]
    with pytest.raises(UserError, match="known: calculator, files, http"):
        builtin_toolset(["calculator", "shell"])
    with pytest.raises(UserError, match="workspace"):
        builtin_toolset(["files"])
    with pytest.raises(UserError, match="allow"):
        builtin_toolset(["http"])
