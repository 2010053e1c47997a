"""The remote parts of team files, `mcp:` servers and `a2a` nodes: each shape error names the file, line and field
and says what is allowed; secrets come from the environment, never from the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentcore.errors import UserError
from agentcore.teams.errors import TeamSpecError
from agentcore.teams.loader import load_spec, spec_from_text
from agentcore.teams.registry import Registry
from agentcore.teams.remote import Remotes, a2a_writes, expand, mcp_toolset
from agentcore.teams.spec import A2ANode, MCPServer
from agentcore.teams.validate import validate

TEAM = """\
team: remote
mcp:
  time:
    command: python
    args: [-m, mcp_server_time]
    timeout: 20
  docs:
    url: https://example.org/mcp
    token_env: DOCS_TOKEN
    headers: {X-Team: "${TEAM_NAME}"}
state:
  task: str
  answer: str
nodes:
  helper:
    mcp: [time, docs]
    reads: [task]
    writes: [answer]
  peer:
    kind: a2a
    url: http://127.0.0.1:9999/
    token_env: PEER_TOKEN
    timeout: 30
    streaming: false
    reads: [answer]
    writes: [answer]
topology:
  entry: helper
  exit: peer
  edges:
    - {from: helper, to: peer}
"""


def problems(text: str) -> list[tuple[int | None, str, str]]:
    with pytest.raises(TeamSpecError) as caught:
        spec_from_text(text, "t.yaml")
    return [(p.line, p.field, p.message) for p in caught.value.problems]


def test_a_file_with_mcp_servers_and_an_a2a_node_parses() -> None:
    spec, _ = spec_from_text(TEAM)
    assert spec.mcp["time"].command == "python" and spec.mcp["time"].args == ["-m", "mcp_server_time"]
    assert spec.mcp["docs"].token_env == "DOCS_TOKEN"
    peer = spec.nodes["peer"]
    assert isinstance(peer, A2ANode) and (peer.timeout, peer.streaming) == (30, False)
    assert Remotes(spec, Registry()).used() == [
        "mcp.time",
        "mcp.docs",
        "nodes.peer",
    ]


@pytest.mark.parametrize(
    ("before", "after", "line", "field", "says"),
    [
        ("    command: python\n", "    command: python\n    url: http://x/mcp\n", 3, "mcp.time", "not both"),
        ("    command: python\n    args: [-m, mcp_server_time]\n", "", 3, "mcp.time", "either command"),
        ("    url: https://example.org/mcp\n", "    command: srv\n", 7, "mcp.docs", "headers, token_env cannot"),
        ("    command: python\n", "    url: http://x/mcp\n", 3, "mcp.time", "args cannot be used with url"),
        ("    timeout: 20\n", "    timout: 20\n", 6, "mcp.time.timout", "allowed: command, args, env"),
        ("    timeout: 20\n", "    timeout: 0\n", 6, "mcp.time.timeout", "greater than 0"),
        ("    url: https://example.org/mcp\n", "    url: example.org/mcp\n", 8, "mcp.docs.url", "http:// or https://"),
        ("token_env: DOCS_TOKEN", "token_env: sk-123 secret", 9, "mcp.docs.token_env", "not the token itself"),
        ("url: http://127.0.0.1:9999/", "url: 127.0.0.1:9999", 21, "nodes.peer.url", "http:// or https://"),
        ("streaming: false", "stream: false", 24, "nodes.peer.stream", "allowed: description, reads"),
        ("    mcp: [time, docs]\n", "    mcp: time\n", 16, "nodes.helper.mcp", "valid list"),
    ],
)
def test_shape_errors_are_located(before: str, after: str, line: int, field: str, says: str) -> None:
    assert before in TEAM
    [(got_line, got_field, message)] = problems(TEAM.replace(before, after))
    assert (got_line, got_field) == (line, field) and says in message, message


def test_a_tool_node_names_a_declared_mcp_server(tmp_path: Path) -> None:
    text = TEAM.replace(
        "  peer:\n    kind: a2a\n    url: http://127.0.0.1:9999/\n",
        "  peer:\n    kind: tool\n    mcp: clock\n    tool: get_current_time\n",
    ).replace("    token_env: PEER_TOKEN\n    timeout: 30\n    streaming: false\n", "")
    (tmp_path / "t.yaml").write_text(text)
    with pytest.raises(TeamSpecError) as caught:
        validate(*load_spec(tmp_path / "t.yaml"))
    [problem] = caught.value.problems
    assert (problem.rule, problem.line, problem.field) == ("unknown-mcp", 21, "nodes.peer.mcp")
    (tmp_path / "t.yaml").write_text(text.replace("mcp: clock", "mcp: time"))
    validate(*load_spec(tmp_path / "t.yaml"))  # no registered tool is needed: the server has it


def test_a_registered_agent_cannot_also_take_mcp_servers() -> None:
    text = TEAM.replace("    mcp: [time, docs]\n", "    mcp: [time]\n    agent: myapp:agent\n")
    [(line, field, message)] = problems(text)
    assert (line, field) == (15, "nodes.helper") and "registered `agent` brings its own" in message


def test_secrets_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEAM_NAME", "blue")
    monkeypatch.delenv("MISSING_VAR", raising=False)
    assert expand("team-${TEAM_NAME}-${TEAM_NAME}", "x") == "team-blue-blue"
    with pytest.raises(UserError, match=r"mcp\.docs\.headers\.X: the environment variable MISSING_VAR is not set"):
        expand("${MISSING_VAR}", "mcp.docs.headers.X")
    server = MCPServer(url="https://example.org/mcp", token_env="MISSING_VAR")
    with pytest.raises(UserError, match=r"mcp\.docs\.token_env: the environment variable MISSING_VAR"):
        mcp_toolset("docs", server)
    monkeypatch.setenv("MISSING_VAR", "s3cret")
    toolset = mcp_toolset("docs", server)
    assert "s3cret" not in repr(toolset)


def test_a2a_answers_become_typed_writes() -> None:
    one = A2ANode(kind="a2a", url="http://x/", writes=["n"])
    assert a2a_writes(one, {"n": "int"}, "42") == {"n": 42}
    assert a2a_writes(one, {"n": "str"}, "42") == {"n": "42"}
    assert a2a_writes(one, {"n": "list[str]"}, "not json") == {"n": "not json"}  # the state check rejects it
    two = A2ANode(kind="a2a", url="http://x/", writes=["a", "b"])
    assert a2a_writes(two, {"a": "str", "b": "int"}, '{"a": "x", "b": 2, "c": 3}') == {"a": "x", "b": 2}
    with pytest.raises(ValueError, match="JSON object with those keys"):
        a2a_writes(two, {"a": "str", "b": "int"}, '{"a": "x"}')
