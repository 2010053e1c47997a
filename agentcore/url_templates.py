"""A web address whose docs give it as a template is written from the template: "https://{ip}/api/v1/topologies".

APIs document their endpoint with placeholders: "formatted as 'https://{ip}/api/v1/applications/topologies' where
{ip} is the IP address of the server", "the fabricName query parameter placeholder
https://<ip>/sedgeapi/v1/cisco-nir/api/api/telemetry/flowrules/nodes?fabricName={fabricName}". The 0.5B model
copies the template with its placeholders left in (`url="https://<ip>/...?fabricName={fabricName}"`), or makes up
a host (`url="https://api.example.com/network1/fabric1/node12/..."` for "using the IP 192.120.45.67"; the call is
then held as made up, and the model gives up). Where an argument's docs hold one such template and the value
still has a placeholder or is on a host the conversation never writes, the value is the template filled in: an
address placeholder (`ip`, `host`, `server`) with the one IP address the conversation writes, any other with the
value of the call's argument of that name (`{fabricName}` with `fabricName="PEK-ACI"`, also inside a `params`
object). A placeholder nothing fills leaves the value as it was (forty-sixth stop; BFCL live_simple dev 128, 130).

The sentence's end is no part of an address either: "information on the device connector versions from
https://example.com/device-connector-versions.json?" was called with the question mark (dev 132). An address
that ends in "?", ".", "," or "!" where the task writes it followed by a space or its end goes without it.
"""

from __future__ import annotations

import re
from typing import Any

from agentcore.formats import each_free_string

# A URL with at least one placeholder in braces or angle brackets, up to a quote or space.
_TEMPLATE = re.compile(r"https?://[^\s'\"`]*?(?:\{\w+\}|<\w+>)[^\s'\"`]*")
_PLACEHOLDER = re.compile(r"\{(\w+)\}|<(\w+)>")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)")  # "at 10.1.2.3." ends a sentence
_HOST = re.compile(r"https?://([^/\s?#:]+)", re.I)
_ADDRESS_NAMES = frozenset({"ip", "ip_address", "ipaddress", "host", "hostname", "server", "server_ip"})


def from_templates(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> dict[str, Any]:
    """`arguments` with each web address whose docs give it as a template written from it (module docs); the same
    dict when nothing changes."""

    def from_template(value: str, schema: dict[str, Any]) -> str | None:
        templates = {match.rstrip(".,;:)") for match in _TEMPLATE.findall(str(schema.get("description", "")))}
        if len(templates) != 1 or not _needs_template(value, given):
            return None
        return _filled(templates.pop(), arguments, given)

    return each_free_string(arguments, parameters, from_template)


def without_sentence_end(arguments: dict[str, Any], parameters: dict[str, Any], given: str) -> dict[str, Any]:
    """`arguments` with each top-level web address that took the task's closing punctuation without it (module
    docs); the same dict when nothing changes."""

    def trimmed(value: str, schema: dict[str, Any]) -> str | None:
        if not _HOST.match(value) or value[-1:] not in "?.,!":
            return None
        return value.rstrip("?.,!") if re.search(rf"{re.escape(value)}(?:\s|$)", given) else None

    return each_free_string(arguments, parameters, trimmed)


def _needs_template(value: str, given: str) -> bool:
    """Whether a written address still has a placeholder, or is on a host the conversation never writes."""
    if _PLACEHOLDER.search(value):
        return True
    hosts = _HOST.findall(value)
    return bool(hosts) and any(host.lower() not in given.lower() for host in hosts)


def _filled(template: str, arguments: dict[str, Any], given: str) -> str | None:
    """`template` with each placeholder filled (module docs), or None where one cannot be."""
    values = _scalars(arguments)
    addresses = set(_IPV4.findall(given))

    def fill(match: re.Match[str]) -> str:
        key = (match.group(1) or match.group(2)).lower()
        if key in _ADDRESS_NAMES:
            return addresses.copy().pop() if len(addresses) == 1 else match.group(0)
        return str(values[key]) if key in values else match.group(0)

    filled = _PLACEHOLDER.sub(fill, template)
    return None if _PLACEHOLDER.search(filled) else filled


def _scalars(arguments: dict[str, Any]) -> dict[str, Any]:
    """The call's text and number values by casefolded argument name, those of a nested object (`params`) too."""
    found: dict[str, Any] = {}
    for name, value in arguments.items():
        if isinstance(value, dict):
            found.update({k.lower(): v for k, v in value.items() if isinstance(v, str | int | float)})
        elif isinstance(value, str | int | float) and not isinstance(value, bool):
            found[name.lower()] = value
    return found
