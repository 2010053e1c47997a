"""structlog set-up. Every run event becomes one line carrying run_id and step: JSON lines when asked
(`configure_logging(json=True)` or AGENTCORE_LOG_JSON=1), readable key=value lines on a terminal otherwise.

Logging is off until configured (or AGENTCORE_LOG is set), so an un-logged run pays nothing for it; structlog
itself is imported only then.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from agentcore.events import Event

_sink: Callable[[Event], None] | None = None


def configure_logging(*, json: bool | None = None, level: str = "info", stream: TextIO | None = None) -> None:
    """Turn on event logging to `stream` (stderr by default)."""
    import logging

    import structlog

    as_json = json if json is not None else os.environ.get("AGENTCORE_LOG_JSON") == "1"
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if as_json
        else structlog.dev.ConsoleRenderer(colors=False, pad_event_to=0, sort_keys=False)
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(getattr(logging, level.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=stream or sys.stderr),
        cache_logger_on_first_use=False,
    )
    logger = structlog.get_logger("agentcore")

    def sink(event: Event) -> None:
        logger.info(event.kind, **event.fields())

    global _sink
    _sink = sink


def disable_logging() -> None:
    global _sink
    _sink = None


def event_logger() -> Callable[[Event], None] | None:
    """The sink the loop sends events to, or None when logging is off."""
    if _sink is None and os.environ.get("AGENTCORE_LOG"):
        configure_logging(level=os.environ["AGENTCORE_LOG"])
    return _sink
