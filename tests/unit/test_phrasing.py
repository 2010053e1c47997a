"""Arithmetic phrases whose order is not the expression's, spelled out in the task message."""

from __future__ import annotations

import pytest

from agentcore import prompting
from agentcore.phrasing import arithmetic_hints, as_expression


@pytest.mark.parametrize(
    ("task", "hints"),
    [
        ("Subtract 250 from 366.", ['"Subtract 250 from 366" means 366 - 250']),
        (
            "Subtract 250 from the number of days between 2023-06-15 and 2024-06-15.",
            [
                '"Subtract 250 from the number of days between 2023-06-15 and 2024-06-15" means '
                "(the number of days between 2023-06-15 and 2024-06-15) - 250"
            ],
        ),
        ("What is that price plus half of it?", []),  # order-preserving phrases get no hint (see the module)
        (
            "What is 5 less than the price of a desk?",
            ['"5 less than the price of a desk" means (the price of a desk) - 5'],
        ),
        ("Look up the price of a tablet and multiply it by 4.", []),  # already in expression order
        ("What do 3 monitors and 2 keyboards cost?", []),
    ],
)
def test_arithmetic_hints(task: str, hints: list[str]) -> None:
    assert arithmetic_hints(task) == hints


def test_the_task_message_spells_out_the_phrases() -> None:
    assert (
        prompting.task_message("Subtract 3 from 10.").content
        == 'Task: Subtract 3 from 10.\nIn numbers: "Subtract 3 from 10" means 10 - 3.'
    )
    assert prompting.task_message("What is 3 * 4?").content == "Task: What is 3 * 4?"


def test_a_whole_argument_written_as_such_a_phrase_reads_as_its_expression() -> None:
    assert as_expression("Subtract 30 from the price of a printer.") == "(the price of a printer) - 30"
    assert as_expression("5 less than 12") == "12 - 5"
    assert as_expression("Subtract 30 from the price of a printer and then add 2") is None  # more than the phrase
    assert as_expression("the price of a printer - 30") is None
