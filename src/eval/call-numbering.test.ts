/**
 * One call numbering everywhere: the score's "set by call N", report.html's "call N" and the view's
 * "call N" all name `calls[N - 1]` of the trace (1-based positions on the trace), and a call that came
 * without an id (scripted policies, calls parsed from text) is given the id `call_N`.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistantFromParsed } from "../agent/providers/assistant-message.ts";
import { callsSoFar } from "../agent/tool-calls.ts";
import type { ChatMessage, ChatToolCall } from "../agent/types.ts";
import { DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import { runReference } from "../scenarios/run-reference.ts";
import { createEnvApp } from "../server/create-env-app.ts";
import { createSessionStore } from "../server/sessions.ts";
import { createTaskSource } from "../server/task-source.ts";
import { conversationHtml } from "../view/conversation-html.ts";
import { episodeHtml } from "./episode-html.ts";
import { readEpisodeLog } from "./episode-log.ts";
import { evaluate } from "./evaluate.ts";
import { runFiles } from "./run-dir.ts";

const toolCall = (id: string): ChatToolCall => ({
  id,
  type: "function",
  function: { name: "a", arguments: "{}" },
});

describe("call numbering", () => {
  it("the score's 'set by call N' and the drill-downs' 'call N' name the same call of the trace", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-calls-")), "run");
    const config = {
      model: "policy:reference",
      scenarios: ["jira-transition-v1"],
      split: "eval" as const,
      n: 1,
      k: 1,
      concurrency: 1,
      seed: 0,
      reward: "paper" as const,
      maxTurns: 30,
      provider: {},
    };
    await evaluate({ config, dir });
    const [record] = readEpisodeLog(runFiles(dir).episodes).episodes;
    const setBy = [...JSON.stringify(record!.score).matchAll(/set by call (\d+)/g)].map((m) => Number(m[1]));
    expect(setBy.length).toBeGreaterThan(0);
    const names = new Map(
      record!.messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name] as const),
    );
    for (const n of setBy) {
      const call = record!.calls[n - 1]!;
      // The setter is a successful write (the trace's calls[n - 1]), and its id carries the same number.
      expect(call.effect).toBe("write");
      expect(call.tool_call_id).toBe(`call_${n}`);
      const name = names.get(call.tool_call_id)!;
      expect(episodeHtml(record!)).toContain(`call ${n} <code>${name}</code>`);
      expect(conversationHtml(record!)).toContain(`data-call="${n}"><div>call ${n} <code>${name}</code>`);
    }
    expect(readFileSync(runFiles(dir).reportHtml, "utf8")).toContain(`call ${setBy[0]} <code>`);
    expect(record!.calls.map((c) => c.tool_call_id)).toEqual(record!.calls.map((_, i) => `call_${i + 1}`));
  });

  it("ids given to calls parsed from text count on from the calls the conversation already made", () => {
    const before: ChatMessage[] = [
      { role: "user", content: "task" },
      { role: "assistant", content: null, tool_calls: [toolCall("call_1"), toolCall("call_2")] },
      { role: "tool", tool_call_id: "call_1", content: "{}" },
      { role: "tool", tool_call_id: "call_2", content: "{}" },
    ];
    const parsed = {
      content: "",
      calls: [
        { name: "b", arguments: "{}" },
        { name: "c", arguments: "{}" },
      ],
      problems: [],
    };
    const message = assistantFromParsed(parsed, callsSoFar(before));
    expect(message.tool_calls?.map((c) => c.id)).toEqual(["call_3", "call_4"]);
  });

  it("the env server's trace numbers its calls as the score does: call N is the call with i = N", async () => {
    const { scenario, task, site } = createTaskSource().resolve({
      scenario: "jira-transition-v1",
      split: "eval",
      index: 0,
    });
    const reference = runReference(site.fork(), scenario.reference(task), DEFAULT_BASE_URL, task.id);
    const app = createEnvApp({ sessions: createSessionStore() });
    const post = async (path: string, body: unknown) =>
      (
        await app.request(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json();
    const { session_id: sid } = (await post("/v1/sessions", { task_id: task.id })) as { session_id: string };
    for (const call of reference.results)
      await post(`/v1/sessions/${sid}/tools/${call.name}`, { arguments: call.arguments });
    const score = (await post(`/v1/sessions/${sid}/score`, { final_message: reference.answer })) as {
      reward: number;
      explanation: string;
    };
    const trace = (await (await app.request(`/v1/sessions/${sid}/trace`)).json()) as {
      calls: { i: number; name: string; operation_id: string; ok: boolean }[];
    };
    expect(score.reward).toBe(1);
    expect(trace.calls.map((c) => c.i)).toEqual(trace.calls.map((_, k) => k + 1));
    const setBy = [...score.explanation.matchAll(/set by call (\d+)/g)].map((m) => Number(m[1]));
    expect(setBy.length).toBeGreaterThan(0);
    for (const n of setBy) {
      const call = trace.calls.find((c) => c.i === n)!;
      expect(call).toBe(trace.calls[n - 1]);
      expect(call.operation_id).toBe("doTransition");
      expect(call.ok).toBe(true);
    }
  });
});
