"""A number whose docs say what each value stands for takes the value of the one name the conversation writes
(`agentcore.doc_codes`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentcore.agent import Agent
from agentcore.doc_codes import coded_arguments, documented_codes, named_again, named_code, with_named_codes
from agentcore.testing import ScriptedModel, call
from agentcore.tools.function import tool

PROVINCE = {"type": "integer", "description": "ID of the province. Example: 1 for Bangkok, 2 for Chiang Mai."}
SERVICE = {
    "type": "integer",
    "description": "For example, 1 for cleaning service, 2 for ironing service, 3 for big cleaning service.",
}


@pytest.mark.parametrize(
    ("schema", "codes"),
    [
        (PROVINCE, {"bangkok": 1, "chiang mai": 2}),
        ({"type": "integer", "description": "Common values are 5 for 'Critical', and 10 for 'High'."},
         {"critical": 5, "high": 10}),
        ({"type": "integer", "description": "1 represents cleaning service, 2 for ironing."},
         {"cleaning service": 1, "ironing": 2}),
        ({"type": "integer", "description": "'1' represents a cleaning service, '2' represents an ironing service."},
         {"cleaning service": 1, "ironing service": 2}),
        ({"type": "integer", "description": "For example, '1' corresponds to Bangkok, '2' to Chiang Mai, and '3' to "
          "Chonburi."}, {"bangkok": 1, "chiang mai": 2, "chonburi": 3}),
        ({"type": "integer", "description": "A score from 1 to 10, or 0 for none."}, {}),  # a range
        ({"type": "integer", "description": "The count, for example 3 for three items."}, {}),  # one pair only
        ({"type": "string", "description": "1 for Bangkok, 2 for Chiang Mai."}, {}),  # not a number
    ],
)  # fmt: skip
def test_documented_codes(schema: dict[str, Any], codes: dict[str, int]) -> None:
    assert documented_codes(schema) == codes


@pytest.mark.parametrize(
    ("schema", "given", "code"),
    [
        (PROVINCE, "A cleaner in Chiang Mai, Hang Dong District", 2),
        (PROVINCE, "A cleaner in Phuket", None),  # no documented name
        (PROVINCE, "From Bangkok to Chiang Mai", None),  # two: not judged
        (SERVICE, "someone who provides ironing services", 2),  # a plural allowed
        (SERVICE, "a big cleaning service please", 3),  # the longer name, not "cleaning service" inside it
    ],
)
def test_named_code(schema: dict[str, Any], given: str, code: int | None) -> None:
    assert named_code(schema, given) == code


def test_the_named_number_is_written_in_or_replaces_the_models() -> None:
    parameters = {"properties": {"province_id": PROVINCE | {"enum": [1, 2, 3]}, "name": {"type": "string"}}}
    coded = coded_arguments(parameters)
    assert list(coded) == ["province_id"]
    assert with_named_codes({"province_id": 1}, coded, "in Chiang Mai") == {"province_id": 2}
    assert with_named_codes({}, coded, "in Chiang Mai") == {"province_id": 2}
    unchanged = {"province_id": 3}
    assert with_named_codes(unchanged, coded, "in Phuket") is unchanged


@tool
def find_cleaner(province_id: int) -> str:
    """Find a cleaner.

    Args:
        province_id: ID of the province. Example: 1 for Bangkok, 2 for Chiang Mai.
    """
    return f"3 cleaners in province {province_id}"


async def test_a_documented_code_runs_for_the_name_the_task_writes() -> None:
    model = ScriptedModel([call("find_cleaner", province_id=1), "Three."])
    result = await Agent(model, tools=[find_cleaner]).run("Find a cleaner in Chiang Mai.")
    assert [step.result for step in result.steps if step.call] == ["3 cleaners in province 2"]


PROVIDERS = {
    "properties": {
        "province_id": PROVINCE,
        "district_name": {"type": "string", "description": "The district, or null for all."},
        "note": {"type": "string", "enum": ["Bangkok", "Other"]},
    },
    "required": ["province_id"],
}


@pytest.mark.parametrize(
    ("arguments", "again"),
    [
        ({"province_id": 1, "district_name": "Bangkok"}, ["district_name"]),  # the province named again
        ({"province_id": 2, "district_name": "chiang mai "}, ["district_name"]),
        ({"province_id": 1, "district_name": "Chatuchak"}, []),  # a district of it
        ({"province_id": 2, "district_name": "Bangkok"}, []),  # another province's name: not this code's
        ({"province_id": 1, "note": "Bangkok"}, []),  # an enum's choice
    ],
)
def test_a_place_named_again_beside_its_code_is_left_out(arguments: dict[str, Any], again: list[str]) -> None:
    assert named_again(arguments, PROVIDERS) == again


@tool
def find_cleaners(province_id: int, district_name: str | None = None) -> str:
    """Find cleaners.

    Args:
        province_id: ID of the province. Example: 1 for Bangkok, 2 for Chiang Mai.
        district_name: The district, or null for the whole province.
    """
    return f"cleaners in province {province_id}, district {district_name or 'any'}"


async def test_the_call_runs_without_the_province_as_its_district() -> None:
    model = ScriptedModel([call("find_cleaners", province_id=1, district_name="Bangkok"), "Three."])
    result = await Agent(model, tools=[find_cleaners]).run("Find a cleaning service in Bangkok.")
    assert [step.result for step in result.steps if step.call] == ["cleaners in province 1, district any"]
