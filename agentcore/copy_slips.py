"""A long number of the task copied with one zero too few or too many (issue #18).

Asked for the return on equity "given its net income of $2,000,000, shareholder's equity of $10,000,000, and
dividends paid of $200,000", Qwen2.5-Coder-0.5B wrote `shareholder_equity=1000000` (BFCL multiple_128). The loop
held the call back as a value no one gave, and the model answered from its head. A 0.5B model loses count in a
run of zeros; it does not mean another amount. So a whole number of five digits or more that the task does not
write, where the task writes exactly one whole number ten times it or a tenth of it that no other argument of the
call took, is that number of the task. Shorter numbers are left alone: a factor of ten there is as likely a unit
(10 mm for 1 cm) as a slip.
"""

from __future__ import annotations

from typing import Any

from agentcore.unfinished import numbers_in

_LEAST = 10_000  # five digits: a run of zeros the model can miscount


def with_task_zeros(arguments: dict[str, Any], task: str) -> dict[str, Any]:
    """`arguments` with each top-level whole number that is the task's number with one zero too few or too many
    written as the task's number; the same dict when nothing changes."""
    written = {int(n) for n in numbers_in(task) if n.is_integer() and n >= _LEAST}
    taken = {value for value in arguments.values() if _whole(value)}
    fixed = dict(arguments)
    for name, value in arguments.items():
        if not _whole(value) or value in written or max(value, value * 10) < _LEAST:
            continue
        meant = [n for n in written if n in (value * 10, value / 10) and n not in taken]
        if len(meant) == 1:
            fixed[name] = meant[0]
    return fixed if fixed != arguments else arguments


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
