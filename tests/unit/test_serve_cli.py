"""The serve commands refuse bad flags with one clear line before anything starts."""

from __future__ import annotations

import pytest

from agentcore.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["a2a", "serve"], "exactly one agent"),
        (["a2a", "serve", "--agent", "a", "--agent", "b"], "exactly one agent"),
        (["a2a", "serve", "--agent", "a", "--host", "0.0.0.0"], "bearer token"),
        (["mcp", "serve", "--transport", "http", "--host", "10.0.0.1"], "bearer token"),
        (["mcp", "serve", "--object", "nocolon"], "module:attribute"),
        (["mcp", "serve", "--object", "no_such_module_xyz:thing"], "cannot import"),
        (["mcp", "serve", "--object", "agentcore.errors:UserError"], "not a toolset or an Agent"),
        (["mcp", "serve", "--object", "agentcore.errors:missing"], "has no attribute"),
    ],
)
def test_bad_serve_flags_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AGENTCORE_A2A_TOKEN", raising=False)
    monkeypatch.delenv("AGENTCORE_MCP_TOKEN", raising=False)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("agentcore: error:") and message in err and err.count("\n") == 1
