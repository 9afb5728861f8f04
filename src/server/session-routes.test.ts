// callAnswer: a tool call's wire answer, byte for byte what c.json makes of the same object.
import { describe, expect, it } from "vitest";
import { toolCallResult } from "../tools/tool-call-result.ts";
import { callAnswer } from "./session-routes.ts";

const op = { operationId: "getIssue", effect: "read" as const };
const call = { name: "jira_get_issue", arguments: { issueIdOrKey: "ENG-1" } };

describe("callAnswer", () => {
  it("is the JSON of {ok, output} for an answer, whatever its text holds", () => {
    const body = {
      key: "ENG-1",
      summary: 'Quotes " and \\ back\nslash, unicode é — 🚀, \u2028 and </script>',
    };
    const result = toolCallResult(call, op, { status: 200, ok: true, body });
    expect(callAnswer(result)).toBe(JSON.stringify({ ok: true, output: result.observation }));
    expect(JSON.parse(JSON.parse(callAnswer(result)).output)).toEqual(body);
  });

  it("is the JSON of {ok, error, error_type} for a vendor error and for a call that never ran", () => {
    const vendor = toolCallResult(call, op, { status: 404, ok: false, body: { errorMessages: ["Nope"] } });
    const budget = toolCallResult(call, null, { status: null, errorType: "budget", message: "Error: spent" });
    for (const result of [vendor, budget])
      expect(callAnswer(result)).toBe(
        JSON.stringify({ ok: false, error: result.observation, error_type: result.errorType }),
      );
  });
});

describe("callAnswer's kept text", () => {
  it("answers a record sharing a body with an earlier one by that record's own fields", () => {
    const body = { key: "ENG-1" };
    const first = toolCallResult(call, op, { status: 200, ok: true, body });
    expect(callAnswer(first)).toBe(JSON.stringify({ ok: true, output: first.observation }));
    // A repeat's copy (the same body, observation and outcome) gets the same bytes.
    expect(callAnswer({ ...first, arguments: { issueIdOrKey: "ENG-1" } })).toBe(callAnswer(first));
    // Anything else that shares the body object is answered from its own fields, not the kept text.
    const failed = toolCallResult(call, op, { status: 404, ok: false, body });
    expect(callAnswer(failed)).toBe(
      JSON.stringify({ ok: false, error: failed.observation, error_type: "api_error" }),
    );
    const reworded = { ...first, observation: '{"key":"ENG-2"}' };
    expect(callAnswer(reworded)).toBe(JSON.stringify({ ok: true, output: '{"key":"ENG-2"}' }));
    expect(callAnswer(first)).toBe(JSON.stringify({ ok: true, output: first.observation }));
  });
});
