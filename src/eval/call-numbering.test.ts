/**
 * One call numbering everywhere: the score's "set by call N", report.html's "call N" and the view's
 * "call N" all name `calls[N - 1]` of the trace (1-based positions on the trace).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { conversationHtml } from "../view/conversation-html.ts";
import { episodeHtml } from "./episode-html.ts";
import { readEpisodeLog } from "./episode-log.ts";
import { evaluate } from "./evaluate.ts";
import { runFiles } from "./run-dir.ts";

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
      // The setter is a successful write (the trace's calls[n - 1]).
      expect(call.effect).toBe("write");
      const name = names.get(call.tool_call_id)!;
      expect(episodeHtml(record!)).toContain(`call ${n} <code>${name}</code>`);
      expect(conversationHtml(record!)).toContain(`data-call="${n}"><div>call ${n} <code>${name}</code>`);
    }
    expect(readFileSync(runFiles(dir).reportHtml, "utf8")).toContain(`call ${setBy[0]} <code>`);
  });
});
