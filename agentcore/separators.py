"""A number the task writes with thousands separators, copied into an expression with them.

"(73,415 + 28,906) minus 9,877 = ?" was called as `calculator(expression="(73,415 + 28,906) - 9,877")` by
Qwen2.5-Coder-0.5B (forty-ninth stop, trap3 dev pc15): a tuple to Python's parser, which the calculator refuses
("commas are only allowed between function arguments; write 1234, not 1,234"), and the model then answered the
message's 1234, twice. In a string argument with an arithmetic operator, each number written with separators
exactly as the task writes it goes without them. Other commas (a function's arguments, `max(1,234)` where the
task never writes "1,234") stay.
"""

from __future__ import annotations

import re
from typing import Any

_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")
_OPERATOR = re.compile(r"[-+*/()]")


def without_separators(arguments: dict[str, Any], parameters: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with the task's separated numbers in each expression written plain; the same dict when none
    is. (`parameters` is unused: a form of `call_forms`, read off the task alone.)"""
    written = set(_GROUPED.findall(task))
    if not written:
        return arguments
    fixed = {key: _plain(value, written) if isinstance(value, str) else value for key, value in arguments.items()}
    return fixed if fixed != arguments else arguments


def _plain(value: str, written: set[str]) -> str:
    if not _OPERATOR.search(value):
        return value
    return _GROUPED.sub(lambda m: m.group().replace(",", "") if m.group() in written else m.group(), value)
