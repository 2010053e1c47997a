"""Ready-made outcome verifiers for `Memory(verifier=...)`: a run's outcome from a check the user writes, or from
a model's final yes/no judgement (constrained), when no check exists."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from agentcore.errors import ModelError
from agentcore.messages import Message, ModelRequest

if TYPE_CHECKING:
    from agentcore.messages import Model
    from agentcore.result import RunResult

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"correct": {"type": "boolean"}},
    "required": ["correct"],
    "additionalProperties": False,
}
JUDGE_SYSTEM = "You check an AI assistant's final answer. Reply with correct true only if it fully answers the task."


def check(predicate: Callable[[Any], bool]) -> Callable[[RunResult[Any]], bool | None]:
    """A verifier from a predicate on the output; a run that did not complete is a failure."""

    def verify(result: RunResult[Any]) -> bool | None:
        return bool(result.ok and predicate(result.output))

    return verify


def model_judge(model: Model) -> Callable[[RunResult[Any]], Awaitable[bool | None]]:
    """A verifier that asks `model` whether the answer is right (one constrained call). A judge error or an
    unparsable verdict leaves the outcome unknown (None), to be given later by feedback."""

    async def verify(result: RunResult[Any]) -> bool | None:
        if not result.ok:
            return False
        user = f"Task: {result.task}\nFinal answer: {str(result.output)[:400]}\nIs the answer correct?"
        request = ModelRequest(
            messages=(Message("system", JUDGE_SYSTEM), Message("user", user)), output_schema=JUDGE_SCHEMA, max_tokens=16
        )
        try:
            data = json.loads((await model.complete(request)).content or "")
        except (ModelError, json.JSONDecodeError):
            return None
        verdict = data.get("correct") if isinstance(data, dict) else None
        return verdict if isinstance(verdict, bool) else None

    return verify
