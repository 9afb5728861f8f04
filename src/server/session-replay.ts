/**
 * Rebuilding journaled sessions after a crash or restart (`serve --journal DIR`): each session is reopened
 * under its old id on the same task and origin, and its calls are replayed in their journaled order on a
 * fresh fork of the task's site. Everything is deterministic, so the replay must reproduce each answer
 * (checked by digest) and the state hash recorded after every write and every score; a session that does
 * not is set aside (its file renamed `.failed`) and reported, never half-restored. The sequence number and
 * answer of its last numbered call come back too, so a client retrying that call is not applied twice, and so do the answers kept under idempotency keys (openings, tool calls, REST writes).
 * Records are replayed by their sequence numbers: a file whose numbers skip or go back is refused. The
 * MCP sessions bound to it that were still open are kept on the session for the MCP endpoint to reopen.
 */
import { taskTools } from "../env/offered-tools.ts";
import { executeOperation } from "../sandbox/execute.ts";
import { OPERATIONS } from "../sandbox/operations.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import { JOURNAL_VERSION, type Journal, type JournaledSession } from "./journal.ts";
import { openSession } from "./open-session.ts";
import { answerDigest, hashAfter, sentCall } from "./session-calls.ts";
import type { Session, SessionStore } from "./sessions.ts";
import type { TaskSource } from "./task-source.ts";

export interface RestoreReport {
  restored: string[];
  failed: { id: string; reason: string }[];
}

/** Rebuilds every session in the journal into the store. */
export function restoreSessions(store: SessionStore, tasks: TaskSource, journal: Journal): RestoreReport {
  const report: RestoreReport = { restored: [], failed: [] };
  for (const entry of journal.load()) {
    try {
      if ("unreadable" in entry) throw new Error(entry.unreadable); // set aside and reported like the rest
      replay(store, tasks, entry);
      report.restored.push(entry.id);
    } catch (error) {
      // Set the file aside first: closing the half-rebuilt session then finds no journal to remove.
      journal.setAside(entry.id);
      store.delete(entry.id);
      report.failed.push({ id: entry.id, reason: (error as Error).message });
    }
  }
  return report;
}

function replay(store: SessionStore, tasks: TaskSource, entry: JournaledSession): Session {
  if (entry.open.v !== JOURNAL_VERSION)
    throw new Error(
      `journal format ${entry.open.v} is not this server's (${JOURNAL_VERSION}): it was written by another atlas-gym version`,
    );
  const { key, fp } = entry.open;
  const keyed = key !== undefined && fp !== undefined ? { key, fingerprint: fp } : undefined;
  const { session } = openSession(store, tasks, entry.open.request, entry.open.origin, entry.id, keyed);
  const { episode } = session;
  entry.records.forEach((record, i) => {
    const where = `record ${i + 2} of ${entry.id}`;
    if (record.n !== i + 1)
      throw new Error(
        `${where}: its sequence number is ${record.n}, not ${i + 1}: a record is missing or out of order`,
      );
    const check = (result: ToolCallResult, journaled: { obs: string; hash?: string }) => {
      if (answerDigest(result) !== journaled.obs)
        throw new Error(`${where}: the replayed answer differs from the journaled one`);
      if (hashAfter(episode, result).hash !== journaled.hash)
        throw new Error(`${where}: the replayed state hash differs from the journaled one`);
    };
    switch (record.t) {
      case "step": {
        const tools = record.set === "default" ? undefined : taskTools(episode.scenario, record.set);
        const call = { name: record.name, arguments: record.arguments };
        const sent = record.seq === undefined ? null : sentCall(call);
        const result = episode.step(call, tools);
        check(result, record);
        if (record.seq !== undefined)
          [session.lastSeq, session.lastResult, session.lastKey, session.lastCall] = [
            record.seq,
            result,
            record.key ?? null,
            sent,
          ];
        if (record.key !== undefined)
          session.kept.keep({ key: record.key, fingerprint: record.fp! }, { tool: result });
        break;
      }
      case "op": {
        const op = OPERATIONS.find((o) => o.operationId === record.operationId);
        if (!op) throw new Error(`${where}: unknown operation ${record.operationId}`);
        const result =
          record.input === null || record.ctx === null
            ? record.result!
            : executeOperation(episode.site, op, record.input, record.ctx);
        check(episode.recordOperation(op, record.input, result), record);
        if (record.key !== undefined && record.reply)
          session.kept.keep({ key: record.key, fingerprint: record.fp! }, { rest: record.reply });
        break;
      }
      case "final":
        session.finalMessage = record.message;
        episode.finish(record.message);
        break;
      case "score":
        if (episode.site.digest() !== record.hash)
          throw new Error(`${where}: the state hash at scoring differs`);
        break;
      case "mcp": {
        const { n: _n, ...opened } = record;
        session.mcp.set(record.id, opened);
        break;
      }
      case "mcp-close":
        session.mcp.delete(record.id);
        break;
    }
  });
  session.journalSeq = entry.records.length;
  return session;
}
