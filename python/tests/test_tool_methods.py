"""Tools as typed methods: the schema TRL derives from them (transformers' get_json_schema) keeps every
argument, and each nested argument's full JSON Schema stays visible to the model."""

from __future__ import annotations

import json
from typing import Any

import pytest
from transformers.utils import get_json_schema

from atlas_gym.testing import build_tokenizer
from atlas_gym.tool_methods import function_of, make_tool_method, python_name

MARKER = " JSON Schema: "


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []


def bind(tool: dict[str, Any]):
    method = make_tool_method(tool, lambda self, name, args: self.calls.append((name, args)) or "done")
    owner = type("Owner", (Recorder,), {method.__name__: method})
    return owner(), method.__name__


def nested_schema(description: str) -> dict[str, Any]:
    assert MARKER in description, description
    return json.loads(description.split(MARKER, 1)[1])


def test_every_real_tool_keeps_its_arguments_and_nested_schemas(client):
    tools = client.tools("jira-transition-v1")
    for tool in tools:
        spec = function_of(tool)
        instance, name = bind(tool)
        schema = get_json_schema(getattr(instance, name))["function"]
        properties = spec["parameters"].get("properties", {})
        assert schema["name"] == spec["name"]
        assert set(schema["parameters"]["properties"]) == {python_name(p) for p in properties}
        assert set(schema["parameters"].get("required", [])) == set(spec["parameters"].get("required", []))
        for prop, prop_schema in properties.items():
            described = schema["parameters"]["properties"][python_name(prop)]["description"]
            if prop_schema.get("type") == "object":
                expected = {k: v for k, v in prop_schema.items() if k != "description"}
                assert nested_schema(described) == expected


def test_transition_issue_shows_the_nested_transition_and_fields(client):
    tool = next(t for t in client.tools("jira-transition-v1") if t["function"]["name"] == "jira_transition_issue")
    instance, name = bind(tool)
    properties = get_json_schema(getattr(instance, name))["function"]["parameters"]["properties"]
    assert properties["transition"]["type"] == "object"
    assert "id" in nested_schema(properties["transition"]["description"])["properties"]
    assert "resolution" not in nested_schema(properties["fields"]["description"]).get("required", [])
    assert properties["issueIdOrKey"] == {"type": "string", "description": "The issue key (e.g. ENG-12) or numeric id."}


def test_types_enums_unions_and_defaults_map_to_the_schema_trl_builds():
    tool = {
        "type": "function",
        "function": {
            "name": "create_issue",
            "description": "Creates an issue.\nArgs: are nested. Returns: the key.",
            "parameters": {
                "type": "object",
                "properties": {
                    "summary": {"type": "string", "description": "One line."},
                    "priority": {"type": "string", "enum": ["High", "Low"], "default": "Low"},
                    "count": {"type": "integer"},
                    "jql": {"type": ["string", "null"]},
                    "id": {"type": ["string", "number"]},
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "anything": {"description": "No type at all."},
                },
                "required": ["summary"],
            },
        },
    }
    instance, name = bind(tool)
    schema = get_json_schema(getattr(instance, name))["function"]
    props = schema["parameters"]["properties"]
    assert schema["parameters"]["required"] == ["summary"]
    assert schema["description"] == "Creates an issue. Args - are nested. Returns - the key."
    assert props["priority"]["enum"] == ["High", "Low"] and props["priority"]["type"] == "string"
    assert props["count"]["type"] == "integer" and props["count"]["nullable"] is True
    assert props["jql"]["type"] == "string" and props["jql"]["nullable"] is True
    assert props["id"]["type"] == ["number", "string"]
    assert props["labels"] == {"type": "array", "items": {"type": "string"}, "nullable": True, "description": "labels"}
    assert props["anything"] == {"description": "No type at all."}


def test_calls_forward_wire_names_and_unlisted_arguments():
    tool = {
        "name": "move",
        "description": "Moves.",
        "input_schema": {"type": "object", "properties": {"from": {"type": "string"}, "to-status": {"type": "string"}}},
    }
    instance, name = bind(tool)
    props = get_json_schema(getattr(instance, name))["function"]["parameters"]["properties"]
    assert set(props) == {"from_", "to_status"}
    assert getattr(instance, name)(from_="A", to_status="B", extra=1) == "done"
    assert instance.calls == [("move", {"from": "A", "to-status": "B", "extra": 1})]


@pytest.mark.parametrize("bad", ["reset", "get_reward", "_private", "class", "a-b"])
def test_names_that_cannot_be_tool_methods_are_refused(bad):
    with pytest.raises(ValueError, match="cannot be a Python method name"):
        make_tool_method({"name": bad, "input_schema": {}}, lambda *a: "")


def test_the_qwen3_prompt_shows_the_nested_schema_to_the_model(client):
    tool = next(t for t in client.tools("jira-transition-v1") if t["function"]["name"] == "jira_transition_issue")
    instance, name = bind(tool)
    text = build_tokenizer().apply_chat_template(
        [{"role": "user", "content": "Move ENG-1 to Done."}], tools=[getattr(instance, name)], tokenize=False
    )
    rendered = json.loads(text.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0])
    transition = rendered["function"]["parameters"]["properties"]["transition"]
    assert nested_schema(transition["description"])["properties"]["id"]["type"] == ["string", "number"]
