/**
 * A supervised worker killed again while it is being restarted (before its new process serves) is
 * restarted once more, each failed start counted and logged, rather than left down for good; a start
 * that rebuilt sessions from its journal says so.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, startWorkerProcess } from "./worker-process.ts";

describe("a supervised worker", () => {
  it("is started again when its restart dies before serving", async () => {
    const lines: string[] = [];
    const pids: number[] = [];
    const worker = await startWorkerProcess({
      port: await freePort(),
      journal: mkdtempSync(join(tmpdir(), "atlas-worker-")),
      output: "ignore",
      log: (line) => lines.push(line),
      // The first restart's process is killed as soon as it exists.
      onSpawn: (pid) => {
        pids.push(pid);
        if (pids.length === 2) process.kill(pid, "SIGKILL");
      },
    });
    try {
      const opened = await fetch(`${worker.url}/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      });
      expect(opened.status).toBe(200);
      expect(lines).toEqual([]); // an empty journal at the first start: nothing to say
      const back = worker.nextRestart();
      process.kill(worker.pid, "SIGKILL");
      await back;
      expect(worker.up).toBe(true);
      expect(worker.restarts).toBe(2);
      expect(pids).toHaveLength(3);
      expect(worker.pid).toBe(pids[2]);
      const restarting = lines.filter((line) => line.includes("restarting it"));
      expect(restarting[1]).toMatch(
        /did not start [\s\S]*restarting it with its journal \(restart 2 of 10\)/,
      );
      // The start that served says what it rebuilt from the journal, as a single server prints it.
      const journal = lines.filter((line) => line.includes(": journal "));
      expect(journal).toHaveLength(1);
      expect(journal[0]).toMatch(/\(1 sessions rebuilt\)$/);
      expect((await fetch(`${worker.url}/health`)).status).toBe(200);
    } finally {
      await worker.close();
    }
  });
});
