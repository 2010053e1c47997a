"""A short final answer that leaves out the text a tool made of the task's quoted text.

"Reverse the word 'python'." answered "nope", after `reverse_string(text="python")` had returned "nohtyp"
(Qwen2.5-Coder-1.5B on the 48 tasks' x02, forty-eighth stop; it answered "nope" before the call too). A call on
a text the task quotes is the work the task asks for, so its result is the answer; a reply of one or two words
that holds neither that result, the quoted text, nor a number is no answer to it. Longer replies stand: "Yes, it
is a palindrome" answers a question about the result without repeating it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentcore.quotes import quoted
from agentcore.run_reads import good_steps
from agentcore.unfinished import leaves

if TYPE_CHECKING:
    from agentcore.run_state import Run

MAX_WORDS = 2
_DIGIT = re.compile(r"\d")


def text_result_answer(run: Run, answer: str) -> str | None:
    """The last result to answer with instead of `answer`, with a notice; None where the answer stands."""
    settings = run.deps.settings
    if not settings.check_unfinished or settings.output_schema is not None:
        return None
    done = good_steps(run)
    if not done or done[-1].call is None:
        return None
    result = (done[-1].result or "").strip()
    spans = {span.strip().lower() for span in quoted(run.ctx.task)}
    texts = {value.strip().lower() for value in leaves(done[-1].call.arguments) if isinstance(value, str)}
    if not result or "\n" in result or _DIGIT.search(result) or not spans & texts:
        return None
    reply = answer.strip()
    if len(reply.split()) > MAX_WORDS or _DIGIT.search(reply) or result.lower() in reply.lower():
        return None
    if any(span in reply.lower() for span in spans):
        return None  # the quoted text itself, in other letters ("YES" for 'yes' in capitals): the model's own work
    run.notice("final answer left out the result of the call on the task's quoted text; that result answers",
               answer=reply, result=result)  # fmt: skip
    return result
