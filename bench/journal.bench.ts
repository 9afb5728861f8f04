/**
 * The journal's cost per write (`serve --journal`): the same REST write (a comment, as the facade runs it
 * on a session's site and records it on the session) on a journaled session store and on one without a
 * journal, timed in alternating runs so both see the same machine; the difference per write is what the
 * journal costs (the record's JSON and its write(2), and the state checkpoint with the upkeep that makes
 * it incremental). A fresh session every 200 writes keeps the site's size steady. Beside it, the two ways
 * of taking a checkpoint on one written site: Site.digest() (what the journal uses) and Site.hash() (what
 * it used before: the whole state serialised).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeOperation } from "../src/sandbox/execute.ts";
import { AGENT_ACCOUNT_ID } from "../src/sandbox/fixtures/default-site.ts";
import { findOperation } from "../src/sandbox/operations.ts";
import { createJournal } from "../src/server/journal.ts";
import { openSession } from "../src/server/open-session.ts";
import { recordRestOperation } from "../src/server/session-calls.ts";
import { createSessionStore, type Session, type SessionStore } from "../src/server/sessions.ts";
import { createTaskSource } from "../src/server/task-source.ts";
import { type BenchRow, fmt, rate } from "./measure.ts";

const addComment = findOperation("addComment")!;
const ctx = { baseUrl: "http://bench.test/s/x", accountId: AGENT_ACCOUNT_ID };
const body = {
  body: {
    type: "doc",
    version: 1,
    content: [{ type: "paragraph", content: [{ type: "text", text: "bench" }] }],
  },
};
const tasks = createTaskSource();

export function benchJournal(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), "atlas-journal-bench-"));
  try {
    const journaled = writer(createSessionStore({ journal: createJournal(dir) }));
    const plain = writer(createSessionStore());
    const runs = { journaled: [] as number[], plain: [] as number[] };
    for (let round = 0; round < 4; round++) {
      runs.plain.push(rate(plain.write, 700).microsPerOp);
      runs.journaled.push(rate(journaled.write, 700).microsPerOp);
    }
    const best = (xs: number[]) => Math.min(...xs);
    const site = journaled.session().episode.site;
    const digest = rate(() => site.digest(), 400);
    const hash = rate(() => site.hash(), 400);
    return [
      { name: "REST write recorded on a session, no journal", value: `${fmt(best(runs.plain))} µs` },
      { name: "same write, journaled", value: `${fmt(best(runs.journaled))} µs` },
      {
        name: "journal cost per write",
        value: `${fmt((best(runs.journaled) - best(runs.plain)) / 1000, 3)} ms`,
        target: "≤ 0.2 ms",
      },
      { name: "state checkpoint: Site.digest() (incremental)", value: `${fmt(digest.microsPerOp)} µs` },
      {
        name: "state checkpoint: Site.hash() (full serialisation, before)",
        value: `${fmt(hash.microsPerOp)} µs`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes on sessions of one store: a comment run and recorded as the REST facade does it. */
function writer(store: SessionStore) {
  let session: Session | undefined;
  const fresh = () => {
    if (session) store.delete(session.id);
    session = openSession(
      store,
      tasks,
      { task_id: "jira-transition-v1/eval/0" },
      "http://bench.test",
    ).session;
    return session;
  };
  return {
    session: () => session ?? fresh(),
    write(i: number) {
      const current = i % 200 === 0 || !session ? fresh() : session;
      const input = { params: { issueIdOrKey: `ENG-${1 + (i % 5)}` }, body };
      const result = executeOperation(current.episode.site, addComment, input, ctx);
      if (result.status !== 201) throw new Error(`addComment answered ${result.status}`);
      const endpoint = addComment;
      recordRestOperation(
        current,
        addComment,
        { siteId: current.id, input, ctx, endpoint, answer: null },
        result,
      );
    },
  };
}
