import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRecord, makeTrace } from "../../test/support/trace-fixtures.ts";
import { EpisodeLogError, episodeKey, openEpisodeLog, readEpisodeLog } from "./episode-log.ts";

const tempLog = () => join(mkdtempSync(join(tmpdir(), "atlas-log-")), "episodes.jsonl");

describe("episode log", () => {
  it("appends one JSON line per episode and reads them back", () => {
    const path = tempLog();
    const log = openEpisodeLog(path);
    log.append(makeTrace({ index: 0 }));
    log.append(makeTrace({ index: 1, sample: 2 }));
    log.close();
    const text = readFileSync(path, "utf8");
    expect(text.split("\n")).toHaveLength(3);
    const read = readEpisodeLog(path);
    expect(read.episodes.map((e) => e.task_id)).toEqual([
      "jira-transition-v1/eval/0",
      "jira-transition-v1/eval/1",
    ]);
    expect([...read.keys]).toEqual([
      episodeKey("jira-transition-v1/eval/0", 0),
      episodeKey("jira-transition-v1/eval/1", 2),
    ]);
    expect(read.truncatedTail).toBe(false);
  });

  it("reads lines longer than its read buffer, across chunk boundaries", () => {
    const path = tempLog();
    const log = openEpisodeLog(path);
    for (let i = 0; i < 5; i++)
      log.append(makeTrace({ index: i, observation: "é".repeat(300_000 * (i + 1)) }));
    log.close();
    const read = readEpisodeLog(path);
    expect(read.episodes.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(read.episodes[4]!.calls[0]!.observation).toHaveLength(1_500_000);
    expect(read.validBytes).toBe(readFileSync(path).length);
  });

  it("reads a missing file as empty", () => {
    expect(readEpisodeLog(tempLog()).episodes).toEqual([]);
  });

  it("ignores a truncated last line, and cuts it off before appending", () => {
    const path = tempLog();
    const whole = `${JSON.stringify(makeRecord({ index: 0 }))}\n`;
    writeFileSync(path, whole + JSON.stringify(makeRecord({ index: 1 })).slice(0, 120));
    const read = readEpisodeLog(path);
    expect(read.truncatedTail).toBe(true);
    expect(read.episodes).toHaveLength(1);
    expect(read.validBytes).toBe(Buffer.byteLength(whole));

    const log = openEpisodeLog(path);
    expect(log.keys.size).toBe(1);
    log.append(makeTrace({ index: 1 }));
    log.close();
    const again = readEpisodeLog(path);
    expect(again.truncatedTail).toBe(false);
    expect(again.episodes.map((e) => e.index)).toEqual([0, 1]);
  });

  it("keeps a complete last line that lacks its newline, and ends it before appending", () => {
    const path = tempLog();
    writeFileSync(path, JSON.stringify(makeRecord({ index: 0 })));
    expect(readEpisodeLog(path).unterminatedTail).toBe(true);
    const log = openEpisodeLog(path);
    log.append(makeTrace({ index: 1 }));
    log.close();
    expect(readEpisodeLog(path).episodes.map((e) => e.index)).toEqual([0, 1]);
  });

  it("refuses a corrupt line that is not the last, naming the line", () => {
    const path = tempLog();
    writeFileSync(
      path,
      `${JSON.stringify(makeRecord())}\n{"broken\n${JSON.stringify(makeRecord({ index: 1 }))}\n`,
    );
    expect(() => readEpisodeLog(path)).toThrow(EpisodeLogError);
    expect(() => readEpisodeLog(path)).toThrow(/line 2/);
  });

  it("counts a repeated (task, sample) once: the later line (a rerun) replaces the earlier in place", () => {
    const path = tempLog();
    appendFileSync(path, `${JSON.stringify(makeRecord({ reward: 0.5, passed: false }))}\n`);
    appendFileSync(path, `${JSON.stringify(makeRecord({ index: 1 }))}\n`);
    appendFileSync(path, `${JSON.stringify(makeRecord({ reward: 1 }))}\n`);
    const read = readEpisodeLog(path);
    expect(read.episodes).toHaveLength(2);
    expect(read.episodes.map((e) => [e.index, e.score.reward])).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it("does not count an episode that ended in a provider error as done, until a rerun replaces it", () => {
    const path = tempLog();
    const error = { type: "server_error" as const, message: "HTTP 503", status: 503 };
    appendFileSync(path, `${JSON.stringify(makeRecord({ index: 0, reward: 0, error }))}\n`);
    appendFileSync(path, `${JSON.stringify(makeRecord({ index: 1 }))}\n`);
    const read = readEpisodeLog(path);
    expect([...read.providerErrors]).toEqual([episodeKey("jira-transition-v1/eval/0", 0)]);
    const log = openEpisodeLog(path);
    expect([...log.keys]).toEqual([episodeKey("jira-transition-v1/eval/1", 0)]);
    log.append(makeTrace({ index: 0 }));
    log.close();
    const again = readEpisodeLog(path);
    expect(again.providerErrors.size).toBe(0);
    expect(again.episodes.map((e) => e.error)).toEqual([undefined, undefined]);
  });
});
