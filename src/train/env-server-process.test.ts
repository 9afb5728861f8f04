/**
 * The training run's env server process: killed with SIGKILL mid-episode, it is started again on the
 * same URL with its journal, and the open session carries on with its calls intact.
 */
import { describe, expect, it } from "vitest";
import { startEnvServerProcess } from "./env-server-process.ts";

describe("the supervised env server", () => {
  it("restarts after kill -9 on the same URL and keeps its sessions", async () => {
    const lines: string[] = [];
    const server = await startEnvServerProcess({ log: (l) => lines.push(l) });
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const opened = await post("/v1/sessions", { task_id: "jira-transition-v1/eval/0" });
      const sid = opened.session_id as string;
      const first = await post(`/v1/sessions/${sid}/tools/jira_get_issue`, {
        arguments: { issueIdOrKey: "ENG-1" },
        seq: 1,
      });
      const before = server.pid;
      const back = server.nextRestart();
      process.kill(before, "SIGKILL");
      await back;
      expect(server.pid).not.toBe(before);
      expect(server.restarts).toBe(1);
      expect(lines.join("\n")).toMatch(/env server exited \(SIGKILL\); restarting it with its journal/);
      // The retried call is answered from the journal; the session is still there with one call.
      expect(
        await post(`/v1/sessions/${sid}/tools/jira_get_issue`, {
          arguments: { issueIdOrKey: "ENG-1" },
          seq: 1,
        }),
      ).toEqual(first);
      expect(await server.openSessions()).toBe(1);
      const trace = (await (await fetch(`${server.url}/v1/sessions/${sid}/trace`)).json()) as {
        calls: unknown[];
      };
      expect(trace.calls).toHaveLength(1);
    } finally {
      await server.close();
    }
    expect(await server.openSessions()).toBeNull();
  });
});
