"""serve_model.py's tool-call ids: `call_N`, N the call's 1-based number on the episode, counted from the tool
calls already in the request's messages (as src/agent/tool-calls.ts numbers them), so a second turn's call
does not reuse the first turn's id."""

from __future__ import annotations

import json

from atlas_gym.serve_model import calls_so_far, parse_completion


def _block(name: str, **arguments: object) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def test_ids_number_the_calls_of_the_whole_episode():
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "comment on ENG-1"}]
    assert calls_so_far(messages) == 0
    text, first = parse_completion(
        _block("jira_get_issue", issueIdOrKey="ENG-1") + _block("jira_get_comments", issueIdOrKey="ENG-1"),
        calls_so_far(messages),
    )
    assert text == "" and [c["id"] for c in first] == ["call_1", "call_2"]
    # The client sends the turn back with its results, as eval does; the next turn's call is the third.
    messages.append({"role": "assistant", "content": None, "tool_calls": first})
    messages += [{"role": "tool", "tool_call_id": c["id"], "content": "{}"} for c in first]
    assert calls_so_far(messages) == 2
    text, second = parse_completion("done " + _block("jira_add_comment", issueIdOrKey="ENG-1"), calls_so_far(messages))
    assert text == "done" and [c["id"] for c in second] == ["call_3"]
    assert json.loads(second[0]["function"]["arguments"]) == {"issueIdOrKey": "ENG-1"}
    messages.append({"role": "assistant", "content": "done", "tool_calls": second})
    ids = [c["id"] for m in messages if m["role"] == "assistant" for c in m["tool_calls"]]
    assert len(set(ids)) == len(ids) == 3


def test_an_invalid_block_stays_in_the_text_and_takes_no_number():
    text, calls = parse_completion("<tool_call>not json</tool_call>" + _block("jira_get_issue"), previous_calls=4)
    assert text == "<tool_call>not json</tool_call>"
    assert [c["id"] for c in calls] == ["call_5"]
    # Assistant turns without calls and other roles do not count.
    assert calls_so_far([{"role": "assistant", "content": "hi"}, {"role": "tool", "content": "x"}]) == 0
