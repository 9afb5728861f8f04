import { describe, expect, it } from "vitest";
import { makeTrace } from "../../test/support/trace-fixtures.ts";
import { conversation, extrasOf, toEpisodeRecord } from "./episode-record.ts";

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("episode record (a line of episodes.jsonl)", () => {
  it("stores each tool call once, and the conversation is rebuilt from the calls by id", () => {
    const trace = makeTrace({ calls: 3, observation: '{"key":"ENG-1","marker":"OBS-123"}' });
    trace.turns = [
      {
        request: 2,
        turn: { message: trace.messages[2]!, latencyMs: 5, attempts: 3 },
        calls: trace.calls,
      },
      { request: 6, turn: { message: trace.messages.at(-1)!, latencyMs: 2, attempts: 1 }, calls: [] },
    ];
    const record = toEpisodeRecord(trace);
    const line = JSON.stringify(record);
    // Each observation once (in the trace's calls), each argument set once (in the assistant message).
    expect(occurrences(line, "OBS-123")).toBe(3);
    expect(occurrences(line, "ENG-2")).toBe(1);
    expect(record.messages.filter((m) => m.role === "tool")).toEqual([
      { role: "tool", tool_call_id: "call_0_0" },
      { role: "tool", tool_call_id: "call_1_0" },
      { role: "tool", tool_call_id: "call_2_0" },
    ]);
    expect(record.calls.map((c) => c.tool_call_id)).toEqual(["call_0_0", "call_1_0", "call_2_0"]);
    expect(record.turns.map((t) => [t.message, t.retries])).toEqual([
      [2, 2],
      [6, 0],
    ]);
    expect(record.retries).toBe(2);
    expect(conversation(record)).toEqual(trace.messages);
    // The full trace would hold every call two or three times.
    expect(line.length).toBeLessThan(JSON.stringify(trace).length * 0.7);
  });

  it("writes snake_case keys at every level it owns, and leaves data keys alone", () => {
    const trace = Object.assign(makeTrace({ violations: ["invalid_payload"] }), {
      expectation: { updates: [{ fields: { issueType: "Bug", customfield_10020: 3 } }] },
    });
    const record = toEpisodeRecord(trace);
    const camel = /[a-z][A-Z]/;
    for (const key of Object.keys(record)) expect(key).not.toMatch(camel);
    for (const key of Object.keys(record.score)) expect(key).not.toMatch(camel);
    for (const call of record.calls) for (const key of Object.keys(call)) expect(key).not.toMatch(camel);
    expect(record.score.paper_reward).toBe(1);
    expect(record).toHaveProperty("task_id", "jira-transition-v1/eval/0");
    expect(record.expectation).toEqual(trace.expectation);
    expect(extrasOf(record)).toEqual([["expectation", trace.expectation]]);
  });
});
