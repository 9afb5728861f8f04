/**
 * A journal line that cannot be written (a full disk) undoes its call: memory never holds a change the
 * journal lacks. The client is told so (503, `journal_unavailable`, on `/v1`; the vendor's shape on REST),
 * the session is as before the call, the same call sent again is applied once, and a server rebuilt from
 * the journal has exactly the state the first one had.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { faults } from "../../test/support/faulty-fs.ts";
import { handlerApi } from "../../test/support/json-api.ts";
import { recordReference } from "../agent/scripted/replay.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { createGymHandler } from "./start-gym-server.ts";

vi.mock("node:fs", async (importOriginal) =>
  (await import("../../test/support/faulty-fs.ts")).faultyFs(await importOriginal()),
);

type Handler = ReturnType<typeof createGymHandler>;
const TASK = "jira-transition-v1/eval/3";

const call = (handler: Handler, method: string, path: string, body?: unknown) =>
  handlerApi(handler.fetch)(method, path, body);

/** A journaled server on a fresh folder with one session on TASK, and that session's state now. */
async function journaledSession() {
  const dir = mkdtempSync(join(tmpdir(), "atlas-journal-fail-"));
  const handler = createGymHandler({ seed: 1, journal: dir });
  const id = (await call(handler, "POST", "/v1/sessions", { task_id: TASK })).body.session_id as string;
  const session = handler.sessions.get(id);
  const state = () => ({ digest: session.episode.site.digest(), calls: session.episode.calls.length });
  return { dir, handler, id, session, state };
}

/** The reference solution's calls for TASK (its first write is the transition). */
function reference() {
  const [scenarioId, , index] = TASK.split("/") as [string, string, string];
  const scenario = findScenario(scenarioId);
  return recordReference(scenario, tasksFor(scenario, "eval", 1, Number(index))[0]!);
}

describe("a journal line that cannot be written", () => {
  it("undoes a tool call and says so; the same call sent again applies once, and a restart agrees", async () => {
    const { dir, handler, id, state } = await journaledSession();
    const calls = reference().calls;
    for (const [i, c] of calls.entries()) {
      const before = state();
      const send = () =>
        call(handler, "POST", `/v1/sessions/${id}/tools/${c.name}`, { arguments: c.arguments, seq: i + 1 });
      faults.queue.push("enospc");
      const refused = await send();
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe("journal_unavailable");
      expect(refused.body.error).toMatch(/ENOSPC.*undone.*send it again/);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(state()).toEqual(before);
      const applied = await send();
      expect(applied.status).toBe(200);
      expect(state().calls).toBe(before.calls + 1);
    }
    const after = state();
    handler.journal?.close();
    const rebuilt = createGymHandler({ seed: 1, journal: dir });
    expect(rebuilt.restored?.restored).toEqual([id]);
    const again = rebuilt.sessions.get(id);
    expect({ digest: again.episode.site.digest(), calls: again.episode.calls.length }).toEqual(after);
    rebuilt.journal?.close();
  });

  it("undoes a REST write on the session's site, answered in the vendor's shape, and a final answer", async () => {
    const { handler, id, session, state } = await journaledSession();
    const before = state();
    const comment = {
      body: {
        type: "doc",
        version: 1,
        content: [{ type: "paragraph", content: [{ type: "text", text: "hi" }] }],
      },
    };
    faults.queue.push("enospc");
    const refused = await call(handler, "POST", `/s/${id}/rest/api/3/issue/ENG-1/comment`, comment);
    expect(refused.status).toBe(503);
    expect(refused.body.errorMessages[0]).toMatch(/could not be written.*undone/);
    expect(state()).toEqual(before);
    expect((await call(handler, "POST", `/s/${id}/rest/api/3/issue/ENG-1/comment`, comment)).status).toBe(
      201,
    );
    expect(state().calls).toBe(before.calls + 1);

    faults.queue.push("enospc");
    const scored = await call(handler, "POST", `/v1/sessions/${id}/score`, { final_message: "Done." });
    expect(scored.status).toBe(503);
    expect(session.finalMessage).toBeNull();
    expect((await call(handler, "GET", `/v1/sessions/${id}/trace`)).body.final_message).toBeNull();
    // The final answer's line written, the score's not: the final answer stays, as the journal has it.
    faults.queue.push("ok", "enospc");
    expect((await call(handler, "POST", `/v1/sessions/${id}/score`, { final_message: "Done." })).status).toBe(
      503,
    );
    expect(session.finalMessage).toBe("Done.");
    expect(session.episode.finalMessage).toBe("Done.");
    handler.journal?.close();
  });
});
