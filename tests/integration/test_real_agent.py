"""The core loop on the real embedded model (Qwen2.5-Coder-0.5B through llama.cpp, in-process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentcore import Agent
from agentcore.models.llamacpp import LlamaCppModel
from agentcore.tools.builtin import builtin_toolset

pytestmark = pytest.mark.real_model


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "count.txt").write_text("1234\n")
    return tmp_path


async def test_two_step_chain_reads_then_computes(qwen: LlamaCppModel, workspace: Path) -> None:
    agent: Agent[None, str] = Agent(qwen, tools=builtin_toolset(["calculator", "files"], workspace=workspace))
    result = await agent.run("Read count.txt, then use the calculator to multiply the number in it by 3.")
    called = [step.call.name for step in result.steps if step.call is not None]
    assert result.status == "completed"
    assert "3702" in str(result.output)
    assert called[:1] == ["read_file"] and "calculator" in called
    # KV reuse: every step after the first is served mostly from the cache.
    assert all(step.usage.cached_tokens > 0 for step in result.steps[1:])
    assert result.steps[1].usage.cached_tokens >= result.steps[0].usage.prompt_tokens


PRICES = {"laptop": 899.0, "monitor": 215.0}


def price(product: str) -> float:
    """Price of a product in dollars (laptop, monitor)."""
    return PRICES[product.lower().strip()]


async def test_explicit_steps_are_followed_to_the_end(qwen: LlamaCppModel) -> None:
    """Without the step plan this model answered 899 or called calculator("3 * laptop_price") first."""
    agent: Agent[None, str] = Agent(qwen, tools=[price, builtin_toolset(["calculator"])])
    result = await agent.run("Look up the price of a laptop, then multiply it by 3.")
    called = [step.call.name for step in result.steps if step.call is not None and not step.tool_error]
    assert called == ["price", "calculator"]
    assert "2697" in str(result.output)


async def test_tool_calls_are_always_valid(qwen: LlamaCppModel) -> None:
    agent: Agent[None, str] = Agent(qwen, tools=builtin_toolset(["calculator"]))
    result = await agent.run("What is 24344 * 334?")
    assert "8130896" in str(result.output)
    for step in result.steps:
        if step.call is not None:
            assert step.call.name == "calculator" and isinstance(step.call.arguments["expression"], str)


async def test_typed_output_is_parsed(qwen: LlamaCppModel) -> None:
    agent: Agent[None, int] = Agent(qwen, tools=builtin_toolset(["calculator"]), output_type=int)
    result = await agent.run("What is 12 * 12?")
    assert result.output == 144


async def test_context_overflow_is_a_clear_error_not_a_crash(default_model_path: str) -> None:
    small = LlamaCppModel(default_model_path, n_ctx=128, n_threads=2)
    agent: Agent[None, str] = Agent(small, tools=builtin_toolset(["calculator"]))
    result = await agent.run("Add these numbers: " + " + ".join(str(n) for n in range(200)))
    assert result.status == "error"
    assert result.error is not None and "n_ctx=128" in result.error


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "agentcore"
    env = {k: v for k, v in os.environ.items() if k != "AGENTCORE_BLOCK_REAL_MODELS"}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300, check=False, env=env)


def test_cli_runs_a_task_on_a_gguf_path(default_model_path: str) -> None:
    done = _cli("run", "--model", default_model_path, "--threads", "2", "What is 24344 * 334?")
    assert done.returncode == 0, done.stderr
    assert "8130896" in done.stdout
    assert "[step 1]" in done.stderr and "ledger:" in done.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["run", "--model", "/no/such/model.gguf", "hi"], "no such model file"),
        (["run", "--model", "no-such-model", "hi"], "unknown model"),
        (["run", "--tools", "files", "hi"], "workspace"),
    ],
)
def test_cli_errors_are_one_line(args: list[str], needle: str) -> None:
    done = _cli(*args)
    assert done.returncode != 0
    assert needle in done.stderr.lower()
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
