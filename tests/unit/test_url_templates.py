"""A web address whose docs give it as a template is written from the template (`agentcore.url_templates`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool
from agentcore.url_templates import from_templates, without_sentence_end

NODES = {
    "properties": {
        "url": {
            "type": "string",
            "description": "The URL, with the fabricName query parameter placeholder "
            "https://<ip>/sedgeapi/v1/telemetry/nodes?fabricName={fabricName}.",
        },
        "fabricName": {"type": "string", "description": "Replaces the {fabricName} placeholder in the URL."},
    }
}
INTERFACE = {
    "properties": {
        "url": {"type": "string", "description": "The endpoint, e.g., 'https://{ip}/sedgeapi/v1/interfaceInfo'."},
        "params": {"type": "object", "properties": {"nodeId": {"type": "integer"}}},
    }
}
PLAIN = {"properties": {"url": {"type": "string", "description": "The endpoint, e.g. 'https://example.com/api'."}}}


@pytest.mark.parametrize(
    ("arguments", "parameters", "given", "url"),
    [
        # placeholders left in: filled from the task's address and the call's own argument
        ({"url": "https://<ip>/sedgeapi/v1/telemetry/nodes?fabricName={fabricName}", "fabricName": "PEK-ACI"},
         NODES, "IP:192.168.11.33 fabric PEK-ACI", "https://192.168.11.33/sedgeapi/v1/telemetry/nodes?fabricName=PEK-ACI"),
        # a host no one wrote: the template, filled
        ({"url": "https://api.example.com/network1/node12", "params": {"nodeId": 12}}, INTERFACE,
         "node 12, using the IP 192.120.45.67", "https://192.120.45.67/sedgeapi/v1/interfaceInfo"),
        # the user's own address stays; so does one with no template, or a placeholder nothing fills
        ({"url": "https://192.168.1.1/other"}, INTERFACE, "send it to https://192.168.1.1/other", "https://192.168.1.1/other"),
        ({"url": "https://api.example.com/x"}, PLAIN, "get the data", "https://api.example.com/x"),
        ({"url": "https://api.example.com/x"}, INTERFACE, "no address here", "https://api.example.com/x"),
        ({"url": "https://api.example.com/x"}, INTERFACE, "10.0.0.1 or 10.0.0.2", "https://api.example.com/x"),
        ({"url": "https://<ip>/sedgeapi/v1/telemetry/nodes?fabricName={fabricName}"}, NODES, "IP 10.0.0.1",
         "https://<ip>/sedgeapi/v1/telemetry/nodes?fabricName={fabricName}"),
    ],
)  # fmt: skip
def test_a_web_address_is_written_from_its_docs_template(
    arguments: dict[str, Any], parameters: dict[str, Any], given: str, url: str
) -> None:
    assert from_templates(arguments, parameters, given)["url"] == url


def test_nothing_to_change_is_the_same_dict() -> None:
    arguments = {"url": "https://192.168.1.1/sedgeapi/v1/interfaceInfo"}
    assert from_templates(arguments, INTERFACE, "the IP 192.168.1.1") is arguments


@tool
def http_get(url: str) -> str:
    """Send a GET request.

    Args:
        url: The endpoint, formatted as 'https://{ip}/api/v1/topologies' where {ip} is the server's address.
    """
    return f"200 from {url}"


async def test_the_call_runs_on_the_templates_address_not_a_made_up_host() -> None:
    model = ScriptedModel([call("http_get", url="https://api.example.com/topologies"), "done"])
    result = await Agent(model, tools=[http_get]).run("Get the topologies from the server at 10.1.2.3.")
    assert result.steps[0].result == "200 from https://10.1.2.3/api/v1/topologies"


URL = {"properties": {"url": {"type": "string"}}}


@pytest.mark.parametrize(
    ("url", "given", "fixed"),
    [
        ("https://example.com/versions.json?", "the versions from https://example.com/versions.json?", "https://example.com/versions.json"),
        ("https://example.com/a.", "Fetch https://example.com/a. Then stop.", "https://example.com/a"),
        # an address the task writes with its "?" inside, or a value the task does not end a sentence with
        ("https://example.com/a?", "Fetch https://example.com/a?x=1", "https://example.com/a?"),
        ("https://example.com/a?q=1", "Fetch https://example.com/a?q=1?", "https://example.com/a?q=1"),
        ("not a url.", "not a url.", "not a url."),
    ],
)  # fmt: skip
def test_an_address_goes_without_the_sentences_end(url: str, given: str, fixed: str) -> None:
    assert without_sentence_end({"url": url}, URL, given)["url"] == fixed
