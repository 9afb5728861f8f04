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
});
