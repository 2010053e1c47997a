"""ASGI guards shared by the MCP and A2A servers: a bearer-token check and a request-body limit. Both answer with
a JSON-RPC error body, which is what clients of either protocol parse."""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable
from typing import Any

from agentcore.errors import UserError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def check_exposure(host: str, token: str | None, env: str) -> None:
    """Loopback needs no token; any other address does (an open agent server on a network runs anyone's tasks)."""
    if host not in LOOPBACK and not token:
        raise UserError(f"binding to {host} exposes the server: set a bearer token (--token or {env})")


class BearerAuth:
    """Every HTTP request outside `public` paths must carry `Authorization: Bearer <token>` (compared in constant
    time); others get 401 with a JSON-RPC error body and a WWW-Authenticate header."""

    def __init__(self, app: Any, token: str, public: Iterable[str] = ()) -> None:
        self.app, self.expected, self.public = app, f"Bearer {token}".encode(), frozenset(public)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("path") not in self.public:
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                message = "missing bearer token" if not given else "invalid bearer token"
                await reply(send, 401, -32001, message, [(b"www-authenticate", b'Bearer realm="agentcore"')])
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Requests whose body exceeds `limit` bytes get 413 (announced length or counted while reading)."""

    def __init__(self, app: Any, limit: int) -> None:
        if limit <= 0:
            raise UserError(f"the request size limit must be a positive number of bytes, got {limit}")
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = dict(scope.get("headers") or []).get(b"content-length", b"")
        if announced.isdigit() and int(announced) > self.limit:
            await reply(send, 413, -32600, f"request body over {self.limit} bytes")
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.limit:
                await reply(send, 413, -32600, f"request body over {self.limit} bytes")
                return
        await self.app(scope, _replay(b"".join(chunks), receive), send)


def _replay(body: bytes, receive: Any) -> Any:
    sent = False

    async def again() -> Any:
        nonlocal sent
        if sent:
            return await receive()  # after the body: disconnects reach the app as before
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again


async def reply(send: Any, status: int, code: int, message: str, extra: list[tuple[bytes, bytes]] = []) -> None:  # noqa: B006
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
