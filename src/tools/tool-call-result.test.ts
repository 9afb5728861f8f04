// toolCallResult: how every surface words an answer for the agent, and what it records of the call.
import { describe, expect, it } from "vitest";
import { toolCallResult } from "./tool-call-result.ts";

const call = { name: "jira_get_issue", arguments: { issueIdOrKey: "ENG-1" } };
const getIssue = { operationId: "getIssue", effect: "read" as const };

describe("toolCallResult", () => {
  it("records an answered call with its JSON body as the observation", () => {
    const input = { params: { issueIdOrKey: "ENG-1" }, body: undefined };
    expect(toolCallResult(call, getIssue, { status: 200, ok: true, body: { key: "ENG-1" }, input })).toEqual({
      ...call,
      operationId: "getIssue",
      effect: "read",
      input,
      status: 200,
      ok: true,
      errorType: null,
      body: { key: "ENG-1" },
      observation: '{"key":"ENG-1"}',
    });
  });

  it("says when an answer has no content, and records no input when none was given", () => {
    const done = toolCallResult(
      call,
      { operationId: "doTransition", effect: "write" },
      { status: 204, ok: true },
    );
    expect(done).toMatchObject({ body: null, input: null, observation: "Done (HTTP 204, no content)." });
  });

  it("records a vendor error as an api_error unless told otherwise", () => {
    const body = { errorMessages: ["Issue does not exist"], errors: {} };
    expect(toolCallResult(call, getIssue, { status: 404, ok: false, body })).toMatchObject({
      ok: false,
      errorType: "api_error",
      observation: `Error 404: ${JSON.stringify(body)}`,
    });
    const invalid = toolCallResult(call, getIssue, {
      status: 400,
      ok: false,
      body,
      errorType: "invalid_args",
    });
    expect(invalid.errorType).toBe("invalid_args");
  });

  it("records a call no operation answered with the given message and nothing ran", () => {
    const message = "Error: the budget of 3 tool calls is spent; this call was not executed.";
    expect(toolCallResult(call, null, { status: null, errorType: "budget", message })).toEqual({
      ...call,
      operationId: null,
      effect: null,
      input: null,
      status: null,
      ok: false,
      errorType: "budget",
      body: null,
      observation: message,
    });
  });
});
