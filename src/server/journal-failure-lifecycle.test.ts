/**
 * Opening and closing sessions (env and MCP) when the journal cannot be changed: nothing happens that
 * the journal lacks. An opening is refused (503) and leaves no file; a close (DELETE, the reaper) that
 * cannot remove or record changes nothing and is tried again; the reaper never takes the server down.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { faults } from "../../test/support/faulty-fs.ts";
import { sessionFiles } from "../../test/support/journal-files.ts";
import { handlerApi } from "../../test/support/json-api.ts";
import { createGymHandler, reapIdle } from "./start-gym-server.ts";

vi.mock("node:fs", async (importOriginal) =>
  (await import("../../test/support/faulty-fs.ts")).faultyFs(await importOriginal()),
);

const TASK = "jira-transition-v1/eval/3";
const MCP_INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };

function journaled(options: { clock?: () => number; sessionTtlMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "atlas-journal-life-"));
  const handler = createGymHandler({ seed: 1, journal: dir, ...options });
  return { dir, handler, api: handlerApi(handler.fetch) };
}

const mcpPost = (handler: ReturnType<typeof createGymHandler>, query: string, body: unknown, headers = {}) =>
  handler.fetch(
    new Request(`http://gym.test/mcp${query}`, {
      method: "POST",
      headers: { ...MCP_HEADERS, ...headers },
      body: JSON.stringify(body),
    }),
  );

describe("opening and closing sessions on a journal that cannot be changed", () => {
  it("refuses an opening it cannot journal (503) and leaves no file behind", async () => {
    const { dir, handler, api } = journaled();
    faults.queue.push("enospc");
    const refused = await api("POST", "/v1/sessions", { task_id: TASK });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe("journal_unavailable");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(handler.sessions.size).toBe(0);
    expect(sessionFiles(dir)).toEqual([]);
    expect((await api("POST", "/v1/sessions", { task_id: TASK })).status).toBe(200);
    handler.journal?.close();
  });

  it("keeps a session whose DELETE cannot remove its journal (503), here and after a restart", async () => {
    const { dir, handler, api } = journaled();
    const id = (await api("POST", "/v1/sessions", { task_id: TASK })).body.session_id as string;
    faults.removals.push("eacces");
    const refused = await api("DELETE", `/v1/sessions/${id}`);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe("journal_unavailable");
    expect((await api("GET", `/v1/sessions/${id}/trace`)).status).toBe(200);
    handler.journal?.close();
    const rebuilt = createGymHandler({ seed: 1, journal: dir });
    expect(rebuilt.restored?.restored).toEqual([id]);
    expect((await handlerApi(rebuilt.fetch)("DELETE", `/v1/sessions/${id}`)).status).toBe(200);
    expect(sessionFiles(dir)).toEqual([]);
    rebuilt.journal?.close();
  });

  it("leaves an idle session to the next pass of the reaper when its journal cannot be removed", async () => {
    let now = 0;
    const { handler, api } = journaled({ clock: () => now, sessionTtlMs: 1000 });
    const id = (await api("POST", "/v1/sessions", { task_id: TASK })).body.session_id as string;
    now = 5000;
    faults.removals.push("eacces");
    expect(reapIdle(handler).sessions).toEqual([]);
    expect(handler.sessions.find(id)).toBeDefined();
    expect(reapIdle(handler).sessions).toEqual([id]);
    handler.journal?.close();
  });

  it("opens and closes a bound MCP session only when its env session's journal records it", async () => {
    const { handler, api } = journaled();
    const id = (await api("POST", "/v1/sessions", { task_id: TASK })).body.session_id as string;
    const session = handler.sessions.get(id);
    faults.queue.push("enospc");
    const refused = await mcpPost(handler, `?session=${id}`, MCP_INIT);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/ENOSPC/);
    expect(handler.mcp.size).toBe(0);
    expect(session.mcp.size).toBe(0);

    const opened = await mcpPost(handler, `?session=${id}`, MCP_INIT);
    expect(opened.status).toBe(200);
    const mcpId = opened.headers.get("mcp-session-id")!;
    expect([...session.mcp.keys()]).toEqual([mcpId]);
    const close = () =>
      handler.fetch(
        new Request(`http://gym.test/mcp?session=${id}`, {
          method: "DELETE",
          headers: { "mcp-session-id": mcpId, "mcp-protocol-version": "2025-03-26" },
        }),
      );
    faults.queue.push("enospc");
    expect((await close()).status).toBe(503);
    expect(handler.mcp.size).toBe(1);
    expect([...session.mcp.keys()]).toEqual([mcpId]);
    const closed = await close();
    expect(closed.status).toBe(200);
    expect(session.mcp.size).toBe(0);
    await handler.mcp.close();
    handler.journal?.close();
  });
});
