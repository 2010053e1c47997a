"""Every run event becomes one structlog line carrying run_id and step."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

from agentcore import Agent, tool
from agentcore.log import configure_logging, disable_logging
from agentcore.testing import ScriptedModel, call


@tool
def double(n: int) -> int:
    """Double n."""
    return 2 * n


@pytest.fixture()
def stream() -> Iterator[io.StringIO]:
    buffer = io.StringIO()
    yield buffer
    disable_logging()


async def test_json_lines_carry_run_and_step_ids(stream: io.StringIO) -> None:
    configure_logging(json=True, stream=stream)
    model = ScriptedModel([call("double", n=21), "42"])
    result = await Agent(model, tools=[double]).run("double 21")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    kinds = [line["event"] for line in lines]
    assert kinds == ["RunStarted", "ModelCalled", "ToolStarted", "ToolCalled", "ModelCalled", "RunFinished"]
    assert {line["run_id"] for line in lines} == {result.run_id}
    assert [line["step"] for line in lines[1:5]] == [1, 1, 1, 2]
    assert lines[3]["result"] == "42" and lines[3]["call"] == 'double({"n": 21})'


async def test_console_lines_are_readable_and_logging_is_off_by_default(stream: io.StringIO) -> None:
    await Agent(ScriptedModel(["hi"])).run("say hi")
    assert stream.getvalue() == ""
    configure_logging(json=False, stream=stream)
    await Agent(ScriptedModel(["hi"])).run("say hi")
    text = stream.getvalue()
    assert "RunFinished" in text and "run_id=" in text and not text.lstrip().startswith("{")
