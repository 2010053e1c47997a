"""A short final answer that leaves out the text a tool made of the task's quoted text.

"Reverse the word 'python'." answered "nope", after `reverse_string(text="python")` had returned "nohtyp"
(Qwen2.5-Coder-1.5B on the 48 tasks' x02, forty-eighth stop; it answered "nope" before the call too). A call on
a text the task quotes is the work the task asks for, so its result is the answer; a reply of one or two words
that holds neither that result, the quoted text, nor a number is no answer to it. Longer replies stand: "Yes, it
is a palindrome" answers a question about the result without repeating it, unless they are the quoted text
reworked in the head (`reworked_quotes`): after `reverse_string(text="Two Rivers, Ohio")` returned "oihO ,sreviR
owT", Qwen2.5-Coder-1.5B answered "Ohio, Rivers, Two" (forty-ninth stop, trap3 dev pc04).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentcore.quotes import quoted
from agentcore.reworked_quotes import reworks_quote
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
    found = _quote_result(run)
    reply = answer.strip()
    if found is None or not _leaves_out(reply, *found, run.ctx.task):
        return None
    run.notice("final answer left out the result of the call on the task's quoted text; that result answers",
               answer=reply, result=found[0])  # fmt: skip
    return found[0]


def _quote_result(run: Run) -> tuple[str, set[str]] | None:
    """The last call's text result and the task's quoted spans, where that call took one of them; else None."""
    done = good_steps(run)
    if not done or done[-1].call is None:
        return None
    result = (done[-1].result or "").strip()
    spans = {span.strip().lower() for span in quoted(run.ctx.task)}
    texts = {value.strip().lower() for value in leaves(done[-1].call.arguments) if isinstance(value, str)}
    if not result or "\n" in result or _DIGIT.search(result) or not spans & texts:
        return None
    return result, spans


def _leaves_out(reply: str, result: str, spans: set[str], task: str) -> bool:
    """Whether `reply` is no answer with `result`: a word or two without it, or the quoted text reworked."""
    if result.lower() in reply.lower():
        return False
    short = len(reply.split()) <= MAX_WORDS and not _DIGIT.search(reply)
    if not short and not reworks_quote(task, reply):
        return False
    # the quoted text itself, in other letters ("YES" for 'yes' in capitals): the model's own work
    return not any(span in reply.lower() for span in spans)
