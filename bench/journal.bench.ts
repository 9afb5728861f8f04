/**
 * The journal's cost per write (`serve --journal`): the same REST write (a comment, as the facade runs it
 * on a session's site and records it on the session) on a journaled session store and on one without a
 * journal, timed in alternating runs so both see the same machine; the difference per write is what the
 * journal costs (the record's JSON and its write(2), and the state checkpoint with the upkeep that makes
 * it incremental). Twice: a fresh session every 200 writes (the site's size stays steady), and every 8
 * writes (an RL episode's few writes, where what a session's first write costs counts: the checkpoint's
 * table sums, the opening's journal line). Beside it, the two ways of taking a checkpoint on one written
 * site: Site.digest() (what the journal uses) and Site.hash() (what it used before: the whole state
 * serialised).
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
import { type BenchRow, fmt, type Rate, rate } from "./measure.ts";

const addComment = findOperation("addComment")!;
const ctx = { baseUrl: "http://bench.test/s/x", accountId: AGENT_ACCOUNT_ID };
const body = {
  body: {
    type: "doc",
    version: 1,
    content: [{ type: "paragraph", content: [{ type: "text", text: "bench" }] }],
  },
};

/** Best of four alternating runs (wall and CPU µs per write) on a store without a journal and on one with. */
function perWrite(dir: string, writesPerSession: number) {
  const journaled = writer(createSessionStore({ journal: createJournal(dir) }), writesPerSession);
  const plain = writer(createSessionStore(), writesPerSession);
  const runs = { journaled: [] as Rate[], plain: [] as Rate[] };
  for (let round = 0; round < 4; round++) {
    runs.plain.push(rate(plain.write, 700));
    runs.journaled.push(rate(journaled.write, 700));
  }
  const best = (of: Rate[], by: "microsPerOp" | "cpuMicrosPerOp") => Math.min(...of.map((r) => r[by]));
  const figures = (by: "microsPerOp" | "cpuMicrosPerOp") => ({
    plain: best(runs.plain, by),
    journaled: best(runs.journaled, by),
  });
  return { wall: figures("microsPerOp"), cpu: figures("cpuMicrosPerOp"), site: journaled.site() };
}

interface Pair {
  plain: number;
  journaled: number;
}
const cost = ({ plain, journaled }: Pair) => `${fmt((journaled - plain) / 1000, 3)} ms`;
const both = ({ plain, journaled }: Pair) => `${fmt(plain)} vs ${fmt(journaled)} µs`;

export function benchJournal(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), "atlas-journal-bench-"));
  try {
    const long = perWrite(dir, 200);
    const short = perWrite(dir, 8);
    const site = long.site;
    const digest = rate(() => site.digest(), 400);
    const hash = rate(() => site.hash(), 400);
    return [
      { name: "REST write recorded on a session, no journal", value: `${fmt(long.wall.plain)} µs` },
      { name: "same write, journaled", value: `${fmt(long.wall.journaled)} µs` },
      {
        name: "journal cost per write (200 writes per session)",
        value: `${cost(long.wall)}; by CPU time ${cost(long.cpu)} (${both(long.cpu)})`,
        target: "≤ 0.2 ms",
      },
      {
        name: "journal cost per write, a fresh session every 8 writes (opening included)",
        value: `${cost(short.wall)} (${both(short.wall)}); by CPU time ${cost(short.cpu)} (${both(short.cpu)})`,
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
function writer(store: SessionStore, writesPerSession: number) {
  // Its own task source: forks of a shared pristine site would share the journaled store's table sums,
  // and the store without a journal would then pay their upkeep on every write.
  const tasks = createTaskSource();
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
    site: () => (session ?? fresh()).episode.site,
    write(i: number) {
      const current = i % writesPerSession === 0 || !session ? fresh() : session;
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
