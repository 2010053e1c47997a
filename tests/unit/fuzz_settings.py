"""Shared set-up of the fuzz tests (`tests/unit/test_fuzz_*.py`): hypothesis settings, strategies, case counts.

Every input the runtime takes must end in a result or a typed agentcore error, never a hang or a raw exception.
Examples are random on each run (no example database is written into the tree); a failure prints the falsifying
example and a `@reproduce_failure` blob. `AGENTCORE_FUZZ_SCALE=10` multiplies every example budget for a soak.
Each test counts its examples with `count(target)`; each module writes one line of counts to the terminal.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

CASES: Counter[str] = Counter()
SCALE = float(os.environ.get("AGENTCORE_FUZZ_SCALE", "1"))


def fuzz(max_examples: int) -> settings:
    """Settings for one fuzz test: `max_examples` (times the scale), no deadline, no database in the tree."""
    return settings(
        max_examples=max(1, math.ceil(max_examples * SCALE)),
        deadline=None,
        database=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def count(target: str) -> None:
    CASES[target] += 1


def report_cases(request: pytest.FixtureRequest) -> Iterator[None]:
    """Body of a module-scoped fixture: after the module, one terminal line with the examples run per target."""
    before = Counter(CASES)
    yield
    ran = CASES - before
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not ran:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line(
            f"\nfuzz cases ({request.module.__name__}): " + ", ".join(f"{k}={v}" for k, v in ran.items())
        )


# --- strategies shared by the modules ---------------------------------------------------------------------------

# Text that breaks naive quoting: quotes, backslashes, control characters, non-BMP and line-separator characters,
# a lone surrogate (json.loads makes one from "\ud800"), and names that are JSON Schema or turn keywords.
AWKWARD = [
    "",
    '"',
    "\\",
    '\\"',
    "\n",
    "\r\n",
    "\t",
    "\x00",
    "\x1f",
    "\x7f",
    "é",
    "\u2028",
    "😀",
    "\ud800",
    "a b",
    "{",
    "}",
    "::=",
    "root",
    "$ref",
    "properties",
    "title",
    "tool",
    "arguments",
    "final_answer",
]
awkward_text = st.one_of(st.text(max_size=12), st.sampled_from(AWKWARD))

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    awkward_text,
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(awkward_text, inner, max_size=4),
    max_leaves=10,
)
