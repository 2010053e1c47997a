"""An http_get tool that can reach only the hosts on an allow-list.

Off by default: building the toolset needs a non-empty allow-list. Every URL, and every redirect hop, is
checked before any connection is made; redirects are followed by hand for that reason. The check is on host
names and ports: an entry without a port allows only the scheme's default port (80, 443), so a redirect to
another service on an allowed host (`:6379`, an admin port) is refused. An allowed name that resolves somewhere
unexpected (DNS) is trusted as the operator's choice.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from agentcore.errors import UserError
from agentcore.tools.function import make_tool
from agentcore.tools.toolset import FunctionToolset

MAX_REDIRECTS = 5
DEFAULT_PORTS = {"http": 80, "https": 443}
_TEXT_TYPES = ("json", "xml", "javascript", "yaml", "csv")
_HOST_PORT = re.compile(r"^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$")  # "host", "host:8080", "[::1]:8080"


class AllowEntry(NamedTuple):
    """A host name, or a suffix such as ".example.org", and a port (None: the URL scheme's default port)."""

    host: str
    port: int | None = None

    def __str__(self) -> str:
        host = f"[{self.host}]" if _is_ipv6(self.host) and self.port is not None else self.host
        return host if self.port is None else f"{host}:{self.port}"


def normalise_allow(allow: Sequence[str]) -> tuple[AllowEntry, ...]:
    """Lower-cased entries: "example.org", ".example.org" (suffix), "example.org:8080", "[::1]:8080"."""
    if isinstance(allow, str):
        allow = [allow]
    entries = [_parse_entry(raw) for raw in allow]
    if not entries:
        raise UserError("http tools need an allow-list of hosts, e.g. http_allow=['example.org']; none was given")
    return tuple(entries)


def _parse_entry(raw: str) -> AllowEntry:
    entry = raw.strip().lower()
    if _is_ipv6(entry):  # a bare IPv6 address has colons but no port
        return AllowEntry(entry.strip("[]"))
    match = _HOST_PORT.match(entry)
    host, digits = (match.group(1), match.group(2)) if match else ("", None)
    bracketed = host.startswith("[")
    host = host.strip("[]") if bracketed else host.rstrip(".")
    valid = _is_ipv6(host) if bracketed else bool(host.strip(".")) and not any(c in host for c in "/@[]")
    if not valid:
        raise UserError(
            f"http allow-list entry {raw!r} is not a host: write a host name like 'example.org', a suffix like"
            " '.example.org' or a host and port like 'localhost:8080' (no scheme or path)"
        )
    port = int(digits) if digits else None
    if port is not None and not 0 < port < 65536:
        raise UserError(f"http allow-list entry {raw!r} has port {port}; ports are 1 to 65535")
    return AllowEntry(host, port)


def is_allowed_host(host: str, allow: Sequence[str]) -> bool:
    """True if `host` is an entry, or ends with a dot-entry such as '.example.org' (or is example.org)."""
    host = host.lower().rstrip(".")
    for entry in allow:
        if entry.startswith("."):
            if host.endswith(entry) or host == entry[1:]:
                return True
        elif host == entry:
            return True
    return False


def is_allowed(host: str, port: int, default_port: int, allow: Sequence[AllowEntry]) -> bool:
    """True if an entry names `host` (or a suffix of it) and `port`, or names no port and `port` is the
    scheme's default."""
    return any(
        is_allowed_host(host, [entry.host]) and port == (default_port if entry.port is None else entry.port)
        for entry in allow
    )


def check_url(url: Any, allow: Sequence[AllowEntry]) -> Any:
    """The parsed `httpx.URL` if its scheme is http(s) and its host and port are allowed; ValueError otherwise."""
    import httpx

    try:
        parsed = url if isinstance(url, httpx.URL) else httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise ValueError(f"invalid URL {url!r}: {exc}") from None
    if parsed.scheme not in ("http", "https"):
        raise ValueError(f"URL scheme {parsed.scheme or 'none'!r} is refused; only http and https are allowed")
    host = parsed.raw_host.decode("ascii")
    if not host:
        raise ValueError(f"URL {url!r} has no host; write a full URL such as https://example.org/page")
    default = DEFAULT_PORTS[parsed.scheme]
    port = default if parsed.port is None else parsed.port  # httpx gives None for the scheme's default port
    if not is_allowed(host, port, default, allow):
        shown = ", ".join(map(str, allow))
        what = f"port {port} of host {host!r}" if is_allowed_host(host, [e.host for e in allow]) else f"host {host!r}"
        raise ValueError(f"{what} is not in the allow-list ({shown}); the request was refused")
    return parsed


def http_toolset(allow: Sequence[str], *, timeout: float = 10.0, max_chars: int = 4000) -> FunctionToolset:
    """An `http_get` tool that fetches pages only from `allow`: hosts, suffixes like '.example.org', and
    'host:port' for a port other than the scheme's default."""
    hosts = normalise_allow(allow)

    async def http_get(url: str) -> str:
        """Fetch a web page with HTTP GET and return its status and text.

        Args:
            url: The full URL, starting with http:// or https://.
        """
        import httpx

        target = check_url(url, hosts)
        # Proxies from the environment are ignored so that the checked host is the one connected to.
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            for _ in range(MAX_REDIRECTS + 1):
                try:
                    async with client.stream("GET", target) as response:
                        location = response.headers.get("location")
                        if not (response.is_redirect and location):
                            return await _read_text(response, max_chars)
                except httpx.HTTPError as exc:
                    raise ValueError(f"request to {target} failed: {type(exc).__name__}: {exc}") from None
                try:
                    target = check_url(response.url.join(location), hosts)
                except ValueError as exc:
                    raise ValueError(f"redirect from {response.url} refused: {exc}") from None
        raise ValueError(f"too many redirects (more than {MAX_REDIRECTS})")

    # Each hop may take `timeout` to connect and again to read; the tool's own timeout bounds the whole call.
    return FunctionToolset([make_tool(http_get, timeout=timeout * 3)])


async def _read_text(response: Any, max_chars: int) -> str:
    """Status line and text, reading at most about `max_chars` characters from the network."""
    content_type = response.headers.get("content-type", "")
    head = f"HTTP {response.status_code} {response.reason_phrase}".rstrip()
    if content_type and not (content_type.startswith("text/") or any(t in content_type for t in _TEXT_TYPES)):
        return f"{head}\n[binary content of type {content_type} not shown]"
    parts: list[str] = []
    size = 0
    async for chunk in response.aiter_text():
        parts.append(chunk)
        size += len(chunk)
        if size > max_chars:
            break
    text = "".join(parts)
    if len(text) > max_chars:
        text = text[:max_chars] + f"\n[truncated to {max_chars} characters]"
    return f"{head}\n{text}"


def _is_ipv6(entry: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(entry.strip("[]")), ipaddress.IPv6Address)
    except ValueError:
        return False
