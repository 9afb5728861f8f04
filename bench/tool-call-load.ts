/**
 * The load of the env-server and fleet benchmarks: a keep-alive HTTP client, and `toolCallRounds`, which
 * keeps `lanes` `jira_get_issue` calls in flight for a measured time, each lane moving on to a fresh
 * session when its session's budget is spent (sessions opened before the clock starts and closed after
 * it stops: neither timed nor counted in the server CPU it reports). What the sessions read is the `Mix`.
 */
import { Agent, request } from "node:http";

export const SCENARIO = "jira-transition-v1";
export const CALL_ARGS = { issueIdOrKey: "ENG-1", fields: ["summary", "status"] };

export type Send = (
  method: string,
  path: string,
  body?: string,
  extra?: Record<string, string>,
) => Promise<{ status: number; text: string }>;

export function client(base: string, sockets: number): Send {
  const { hostname, port } = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send: Send = (method, path, body = "", extra = {}) =>
    new Promise((resolve, reject) => {
      const headers = {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        ...extra,
      };
      const req = request({ host: hostname, port, method, path, agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      // A kept-alive socket the server closed while idle: the request never reached it, so send it again
      // (node's documented pattern for keep-alive races).
      req.on("error", (error: NodeJS.ErrnoException) =>
        req.reusedSocket && error.code === "ECONNRESET"
          ? send(method, path, body, extra).then(resolve, reject)
          : reject(error),
      );
      req.end(body);
    });
  return send;
}

export interface Load {
  perSecond: number;
  calls: number;
  /** Latencies in ms, sorted. */
  latencies: number[];
}

/**
 * What the sessions read:
 * - `repeat`: ENG-1 again and again, sessions on 12 eval tasks (a read the episode answered before);
 * - `group`: a different issue each call, sessions in groups of 8 on a new train task per group, as the
 *   G = 8 rollouts of a GRPO group (the first session to read an issue computes it, the group shares it
 *   while its sites are unchanged: see env/repeat-reads.ts);
 * - `fresh`: a different issue each call, every session on a new train task of its own (nothing read
 *   before anywhere: every answer computed).
 */
export type Mix = "repeat" | "group" | "fresh";

/** Train task indices not used elsewhere in the benches (heap rows use 50,000–60,200), new on every call. */
let nextTrainTask = 100_000;

function taskFor(mix: Mix, round: number, i: number): string {
  if (mix === "repeat") return `${SCENARIO}/eval/${(round + i) % 12}`;
  const index = mix === "fresh" ? nextTrainTask++ : nextTrainTask + Math.floor(i / 8);
  return `${SCENARIO}/train/${index}`;
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Times one request; anything but 200 (or a tool answer other than ok) fails the benchmark. */
export async function timed(latencies: number[], call: () => Promise<{ status: number; text: string }>) {
  const t = performance.now();
  const { status, text } = await call();
  latencies.push(performance.now() - t);
  if (status !== 200 || text.startsWith('{"ok":false'))
    throw new Error(`benchmark request answered ${status}: ${text.slice(0, 200)}`);
}

let keys = 0;

/** A call's body and headers as the Python client sends them: numbered (`seq`) and under a fresh key. */
export function keyedCall(body: string, seq: number): [string, Record<string, string>] {
  return [`${body.slice(0, -1)},"seq":${seq}}`, { "idempotency-key": `bench-${++keys}` }];
}

/** `lanes` lanes each sending `body` to `path` for about `ms` (`keyed`: as keyedCall sends it). */
export async function postRounds(
  send: Send,
  path: string,
  body: string,
  lanes: number,
  ms: number,
  keyed = false,
): Promise<Load> {
  const latencies: number[] = [];
  const start = performance.now();
  const until = start + ms;
  const counts = await Promise.all(
    Array.from({ length: lanes }, async () => {
      let n = 0;
      for (; performance.now() < until; n++) {
        const [sent, headers] = keyed ? keyedCall(body, 1) : [body, {}];
        await timed(latencies, () => send("POST", path, sent, headers));
      }
      return n;
    }),
  );
  const calls = counts.reduce((a, b) => a + b, 0);
  latencies.sort((a, b) => a - b);
  return { perSecond: (calls / (performance.now() - start)) * 1000, calls, latencies };
}

/** The last rounds' rate (calls per ms) and calls per session, by client and mix. */
const lastRounds = new WeakMap<Send, Map<Mix, { perMs: number; perSession: number }>>();
/** Most sessions opened for one batch (the bench servers allow 10,000 at once). */
const MAX_BATCH = 6000;

/**
 * The calls' own load: `lanes` lanes calling at once for about `ms`, each on a session until its budget is
 * spent, then on the next one. The sessions are opened in batches before the clock starts and closed after
 * it stops. A batch is sized for the time left at the rate of this client's last rounds of the mix (the
 * first round's, from its own first batch), with a margin; when a lane still finds none left, the batch
 * ends there for every lane, so the calls in flight stay at `lanes` until the end, as on the bare route
 * (lanes finishing their sessions one by one would count time with fewer calls in flight). With `cpu` (a
 * server's CPU clock, µs), also the server CPU spent in the timed parts.
 */
export async function toolCallRounds(
  send: Send,
  lanes: number,
  ms: number,
  mix: Mix = "repeat",
  cpu?: () => Promise<number>,
  keyed = false,
): Promise<Load & { cpuUs: number }> {
  const latencies: number[] = [];
  // The call bodies, made once (the bare route's client sends one made once too): ENG-1, ENG-2, ...;
  // `keyed`: each call also numbered (`seq`) and under an Idempotency-Key, as the Python client sends them.
  const bodies = Array.from({ length: 64 }, (_, i) =>
    JSON.stringify({ arguments: { ...CALL_ARGS, issueIdOrKey: `ENG-${i + 1}` } }),
  );
  const callOf = (i: number): [string, Record<string, string>] => {
    const body = bodies[mix === "repeat" ? 0 : i % bodies.length]!;
    return keyed ? keyedCall(body, i + 1) : [body, {}];
  };
  let calls = 0;
  let callMs = 0;
  let cpuUs = 0;
  const rates = lastRounds.get(send) ?? lastRounds.set(send, new Map()).get(send)!;
  const sized = (perMs: number, leftMs: number, perSession: number) =>
    Math.min(MAX_BATCH, Math.max(lanes, Math.ceil((perMs * leftMs * 1.3) / perSession)));
  const last = rates.get(mix);
  let batch = last ? sized(last.perMs, ms, last.perSession) : lanes * 2;
  let sessionsUsed = 0;
  for (let round = 0; callMs < ms; round++) {
    const sessions = await Promise.all(
      Array.from({ length: batch }, async (_, i) => {
        const task_id = taskFor(mix, round, i);
        const answer = await send("POST", "/v1/sessions", JSON.stringify({ task_id }));
        const opened = JSON.parse(answer.text) as { session_id: string; limits: { max_tool_calls: number } };
        return { sid: opened.session_id, budget: opened.limits.max_tool_calls };
      }),
    );
    if (mix === "group") nextTrainTask += Math.ceil(batch / 8);
    let next = 0;
    let roundCalls = 0;
    const cpuBefore = cpu ? await cpu() : 0;
    const start = performance.now();
    // The batch ends when its time is up or the first lane finds no session left: every lane then stops
    // after its call in flight, as on the bare route, instead of finishing its session with fewer lanes.
    let end = start + ms - callMs;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (performance.now() < end) {
          if (next === sessions.length) {
            end = Math.min(end, performance.now());
            break;
          }
          const { sid, budget } = sessions[next++]!;
          const path = `/v1/sessions/${sid}/tools/jira_get_issue`;
          for (let i = 0; i < budget && performance.now() < end; i++) {
            const [body, headers] = callOf(i);
            await timed(latencies, () => send("POST", path, body, headers));
            roundCalls++;
          }
        }
      }),
    );
    const roundMs = performance.now() - start;
    callMs += roundMs;
    calls += roundCalls;
    if (cpu) cpuUs += (await cpu()) - cpuBefore;
    await Promise.all(sessions.map(({ sid }) => send("DELETE", `/v1/sessions/${sid}`)));
    sessionsUsed += next;
    // Enough sessions for the time left at this round's rate (and a margin), at least one per lane.
    batch = sized(roundCalls / roundMs, ms - callMs, roundCalls / Math.max(1, next));
  }
  rates.set(mix, { perMs: calls / callMs, perSession: calls / Math.max(1, sessionsUsed) });
  latencies.sort((a, b) => a - b);
  return { perSecond: (calls / callMs) * 1000, calls, latencies, cpuUs };
}
