"""Turns the env server's OpenAI function tools into typed Python methods, the form TRL reads.

TRL builds each tool's schema from a method's signature, type hints and Google-style docstring
(`transformers.utils.get_json_schema`). Type hints flatten nested objects to `{"type": "object"}`, so
for every argument whose schema nests (objects, arrays of objects, unions of shapes) the full JSON
Schema is appended, as compact JSON, to that argument's description: the model still sees every
nested field it must fill in. Standard library only.
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
from collections.abc import Callable
from typing import Any, Literal, Optional, Union

_PRIMITIVES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "object": dict,
    "array": list,
    "null": type(None),
}

# Words that end the description or an argument's text in transformers' docstring parser.
_SECTION_WORDS = re.compile(r"\b(Args|Returns|Raises):")
_RESERVED = ("reset", "get_reward")


def python_type(schema: Any) -> Any:
    """The type hint for a JSON Schema: enums become Literal, type lists and anyOf become unions."""
    if not isinstance(schema, dict):
        return Any
    if (
        isinstance(schema.get("enum"), list)
        and schema["enum"]
        and all(isinstance(v, (str, int, float, bool)) for v in schema["enum"])
    ):
        return Literal[tuple(schema["enum"])]
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([python_type({**schema, "type": k}) for k in kind])
    if kind == "array":
        items = schema.get("items")
        return list[python_type(items)] if isinstance(items, dict) and items.get("type") else list
    if isinstance(kind, str):
        return _PRIMITIVES.get(kind, Any)
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return _union([python_type(s) for s in schema[key]])
    return Any


def _union(types: list[Any]) -> Any:
    unique = list(dict.fromkeys(types))
    if Any in unique:
        return Any
    if len(unique) == 1:
        return unique[0]
    return Union[tuple(unique)]  # noqa: UP007 - built at run time from a list


def nests(schema: Any) -> bool:
    """Whether a property's schema has structure a flat type hint cannot carry."""
    if not isinstance(schema, dict):
        return False
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    if "object" in kinds or any(k in schema for k in ("properties", "anyOf", "oneOf", "allOf")):
        return True
    items = schema.get("items")
    return "array" in kinds and isinstance(items, dict) and (nests(items) or "enum" in items)


def _one_line(text: str) -> str:
    return _SECTION_WORDS.sub(r"\1 -", " ".join(str(text).split()))


def argument_description(name: str, schema: dict[str, Any]) -> str:
    """The argument's docstring text: its description, plus its full JSON Schema when it nests."""
    text = _one_line(schema.get("description") or name)
    if nests(schema):
        full = {k: v for k, v in schema.items() if k != "description"}
        text += " JSON Schema: " + json.dumps(full, separators=(",", ":"), ensure_ascii=False)
    return text


def python_name(name: str) -> str:
    """A parameter name Python accepts for a schema property (`from` → `from_`, `a-b` → `a_b`)."""
    candidate = re.sub(r"\W", "_", name)
    if not candidate or candidate[0].isdigit():
        candidate = "_" + candidate
    return candidate + "_" if keyword.iskeyword(candidate) else candidate


def function_of(tool: dict[str, Any]) -> dict[str, Any]:
    """The `{name, description, parameters}` of an OpenAI function tool or an MCP-style tool."""
    if "function" in tool:
        return tool["function"]
    return {
        "name": tool["name"],
        "description": tool.get("description", ""),
        "parameters": tool.get("input_schema") or tool.get("inputSchema") or {},
    }


def make_tool_method(tool: dict[str, Any], call: Callable[[Any, str, dict[str, Any]], str]) -> Callable:
    """A method `name(self, *, arg: T, ...) -> str` that forwards its arguments to `call(self, name, args)`.

    The signature, annotations and docstring are what TRL turns into the tool schema; the body accepts
    any keyword arguments, so arguments the schema does not list reach the server, which answers with
    the same error the agent would get in evaluation.
    """
    spec = function_of(tool)
    name = spec["name"]
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or name in _RESERVED:
        raise ValueError(f"Tool name {name!r} cannot be a Python method name for TRL")
    parameters = spec.get("parameters") or {}
    properties: dict[str, Any] = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    wire_names = {python_name(p): p for p in properties}
    if len(wire_names) != len(properties):
        raise ValueError(f"Tool {name}: two properties map to the same Python name: {sorted(properties)}")

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    ordered = sorted(properties, key=lambda p: p not in required)  # required first, else schema order
    for prop in ordered:
        schema = properties[prop]
        hint = python_type(schema)
        default = inspect.Parameter.empty
        if prop not in required:
            default = schema.get("default") if isinstance(schema, dict) else None
            hint = Optional[hint] if hint is not Any else Any  # noqa: UP045
        pname = python_name(prop)
        params.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
        annotations[pname] = hint
    annotations["return"] = str

    def method(self, **kwargs: Any) -> str:
        arguments = {wire_names.get(k, k): v for k, v in kwargs.items()}
        return call(self, name, arguments)

    lines = [_one_line(spec.get("description") or name)]
    if ordered:
        lines += ["", "Args:"]
        lines += [f"    {python_name(p)}: {argument_description(p, properties[p] or {})}" for p in ordered]
    method.__name__ = name
    method.__qualname__ = name
    method.__doc__ = "\n".join(lines)
    method.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    return method
