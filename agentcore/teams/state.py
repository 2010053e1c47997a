"""The team's typed state: values checked against the schema's types, writes merged by each key's reducer,
and for every list key the node that added each item (joins weigh answers by who gave them)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from agentcore.teams.spec import StateField, TeamSpec

_SCALARS: dict[str, Any] = {"str": str, "int": int, "float": float, "bool": bool, "dict": dict[str, Any], "any": Any}


def python_type(type_name: str) -> Any:
    """The Python type of a schema type name ('list[str]' -> list[str])."""
    if type_name == "list":
        return list[Any]
    if type_name.startswith("list["):
        return list[_SCALARS[type_name[5:-1]]]  # type: ignore[misc]
    return _SCALARS[type_name]


def write_type(field: StateField) -> Any:
    """What one node writes to this key: one item for `append`, a list for `extend`, else the key's type."""
    if field.reducer == "append":
        return Any if field.type == "list" else _SCALARS[field.type[5:-1]]
    return python_type(field.type)


class StateTypeError(ValueError):
    """A node wrote a value that does not match the key's declared type."""


class State:
    """The values of one team run. `apply` is the only way to change them."""

    def __init__(self, spec: TeamSpec, values: Mapping[str, Any] | None = None) -> None:
        self.spec = spec
        self.values: dict[str, Any] = {k: copy.deepcopy(f.initial()) for k, f in spec.state.items() if f.has_default()}
        self.sources: dict[str, list[str]] = {k: [] for k, f in spec.state.items() if f.type.startswith("list")}
        self._adapters: dict[str, Any] = {}
        for key, value in (values or {}).items():
            self.values[key] = self._checked(key, value, python_type(spec.state[key].type))
            if key in self.sources:
                self.sources[key] = ["input"] * len(self.values[key])

    def view(self, keys: list[str]) -> dict[str, Any]:
        """A copy of the values of `keys` (a node cannot change the state behind the engine's back)."""
        return {k: copy.deepcopy(self.values[k]) for k in keys if k in self.values}

    def apply(self, node: str, writes: Mapping[str, Any]) -> dict[str, Any]:
        """Merge a node's writes by each key's reducer; returns the diff (key -> new value)."""
        checked = {k: self._checked(k, v, write_type(self.spec.state[k])) for k, v in writes.items()}
        diff: dict[str, Any] = {}
        for key, value in checked.items():
            reducer = self.spec.state[key].reducer
            old = self.values.get(key)
            if reducer == "append":
                self.values[key] = [*(old or []), value]
                self.sources[key].append(node)
            elif reducer == "extend":
                self.values[key] = [*(old or []), *value]
                self.sources[key].extend([node] * len(value))
            elif reducer == "merge":
                self.values[key] = {**(old or {}), **value}
            else:
                self.values[key] = value
                if key in self.sources:
                    self.sources[key] = [node] * len(value)
            diff[key] = value
        return diff

    def _checked(self, key: str, value: Any, kind: Any) -> Any:
        from pydantic import TypeAdapter, ValidationError

        adapter = self._adapters.get(str(kind))
        if adapter is None:
            adapter = self._adapters[str(kind)] = TypeAdapter(kind)
        try:
            return adapter.validate_python(value)
        except ValidationError as exc:
            declared = self.spec.state[key].type
            raise StateTypeError(f"'{key}' ({declared}) got {value!r:.80}: {exc.errors()[0]['msg']}") from None
