/**
 * Everything that changes a session's episode, in one place so that each change is journaled the same
 * way whatever surface made it: a tool call (the /v1 API or an MCP session bound to the episode), an
 * operation the REST facade ran on the session's site, and the agent's final answer (sent with a score
 * request, or by a bound MCP session's `submit_final_answer`).
 * A tool call may carry the client's sequence number (`seq`, 1, 2, ... per session): a call retried
 * with the number of the call last applied gets that call's answer again instead of running twice.
 */
import { createHash } from "node:crypto";
import type { Episode } from "../env/episode.ts";
import type { ObservedRequest } from "../http/create-rest-app.ts";
import type { RewardMode, Score } from "../reward/score.ts";
import type { Operation } from "../sandbox/define-operation.ts";
import type { OperationResult } from "../sandbox/execute.ts";
import type { ToolSetName } from "../tools/aliases/tool-sets.ts";
import type { Tool } from "../tools/define-tool.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import { EnvRequestError } from "./errors.ts";
import { IdempotencyConflictError, type KeptReply, type KeyedRequest } from "./idempotency.ts";
import type { Session } from "./sessions.ts";

/** A short digest of a call's answer as the agent saw it (replay checks it call by call). */
export function answerDigest(result: Pick<ToolCallResult, "status" | "observation">): string {
  return createHash("sha256")
    .update(`${result.status} ${result.observation}`)
    .digest("base64url")
    .slice(0, 16);
}

/**
 * The site's state digest after a call that changed it: the checkpoints replay verifies. Site.digest()
 * is incremental (microseconds per write), which keeps the journal's cost per write small.
 */
export function hashAfter(episode: Episode, result: Pick<ToolCallResult, "ok" | "effect">) {
  return result.ok && result.effect === "write" ? { hash: episode.site.digest() } : {};
}

export interface CallOptions {
  /** The tool set the call uses (default: the scenario's own tools). */
  set?: ToolSetName;
  /** That set's tools for this episode, when the caller already has them (an MCP binding). */
  tools?: ReadonlyMap<string, Tool>;
  /** The client's sequence number for this call. */
  seq?: number;
  /** The call's idempotency key (see idempotency.ts). */
  key?: KeyedRequest;
}

/**
 * A tool call as its client sent it (name and arguments), to tell a retry from another call; also the
 * text a tool call's Idempotency-Key fingerprints (session-routes.ts), so a key carries it already.
 */
export function sentCall(call: ToolCallRequest): string {
  return JSON.stringify(["tool", call.name, call.arguments]);
}

/**
 * Thrown when a call's sequence number is neither the next one nor a retry of the last one. Its body
 * carries `last_seq`, the number of the call last applied, so a client unsure whether its last call ran
 * (its answer lost) can take up the count again from the server's.
 */
export class SequenceError extends EnvRequestError {
  override name = "SequenceError";
  /**
   * `taken`: the number is the last call's, but the request carries another Idempotency-Key than it;
   * `other`: the number is the last call's, but the request (without a key) is another call than it.
   */
  constructor(sessionId: string, seq: number, last: number, why: "order" | "taken" | "other" = "order") {
    super(
      409,
      "seq_conflict",
      why === "order"
        ? `Call number ${seq} on session ${sessionId} is out of order: the last call applied was number ${last}, so send ${last + 1} for a new call or ${last} to get the last answer again.`
        : `Call number ${seq} on session ${sessionId} was already applied for ${why === "taken" ? "a request with another Idempotency-Key" : "another tool or other arguments"}, so this call did not run: send ${last + 1} for a new call.`,
      {},
      { last_seq: last },
    );
  }
}

/** A tool call's result, and whether it is the kept answer of an earlier call with its Idempotency-Key. */
export interface ToolCallAnswer {
  result: ToolCallResult;
  replayed: boolean;
}

/** Runs a tool call under the session's lock (see answerToolCall) and gives its result. */
export async function callTool(session: Session, call: ToolCallRequest, options: CallOptions = {}) {
  return (await answerToolCall(session, call, options)).result;
}

/**
 * Runs a tool call under the session's lock: deduplicated by Idempotency-Key (a kept answer is given
 * again, `replayed`) and by `seq`, stepped, journaled.
 */
export function answerToolCall(
  session: Session,
  call: ToolCallRequest,
  options: CallOptions = {},
): Promise<ToolCallAnswer> {
  return session.run((episode) => {
    const { seq, key, set = "default" } = options;
    const kept = key ? session.kept.find(key) : undefined;
    if (kept && "tool" in kept) return { result: kept.tool, replayed: true };
    if (kept) throw new IdempotencyConflictError(key!.key);
    // The call as sent, before the tool sees it (a tool may normalise its arguments); a key has it already.
    const sent = seq === undefined ? null : (key?.text ?? sentCall(call));
    if (seq !== undefined) {
      if (seq === session.lastSeq && session.lastResult) {
        // Another key than that call's, or another call: sent under a number already used, never its answer.
        if (key && session.lastKey !== null && key.key !== session.lastKey)
          throw new SequenceError(session.id, seq, session.lastSeq, "taken");
        if (session.lastCall !== null && sent !== session.lastCall)
          throw new SequenceError(session.id, seq, session.lastSeq, "other");
        return { result: session.lastResult, replayed: false };
      }
      if (seq !== session.lastSeq + 1) throw new SequenceError(session.id, seq, session.lastSeq);
    }
    // The arguments as sent (a tool may normalise what it is given), for the journal.
    const sentArguments = session.journaled ? structuredClone(call.arguments) : undefined;
    const result = episode.step(call, options.tools);
    // Journaled before the session remembers it: a line that cannot be written undoes the call
    // (sessions.ts), and the client's retry of it (same seq, same key) must then run it afresh.
    if (session.journaled)
      session.log({
        t: "step",
        name: call.name,
        arguments: sentArguments,
        set,
        ...(seq === undefined ? {} : { seq }),
        ...(key ? { key: key.key, fp: key.fingerprint } : {}),
        obs: answerDigest(result),
        ...hashAfter(episode, result),
      });
    if (seq !== undefined)
      [session.lastSeq, session.lastResult, session.lastKey, session.lastCall] = [
        seq,
        result,
        key?.key ?? null,
        sent,
      ];
    if (key) session.kept.keep(key, { tool: result });
    return { result, replayed: false };
  });
}

/** Records (and journals) an operation the REST facade ran on a session's site, inside its lock. */
export function recordRestOperation(
  session: Session,
  op: Operation,
  request: ObservedRequest,
  result: OperationResult,
): void {
  const recorded = session.episode.recordOperation(op, request.input, result);
  // A keyed write that ran is kept with the answer the client is sent, for a retry with the same key;
  // not one refused as invalid (400: nothing applied), which the client may fix and send again with it.
  const answer = request.answer ?? result;
  const keyed =
    op.effect === "write" && request.input !== null && answer.status !== 400 ? session.restKey : null;
  const reply = keyed ? replyOf(answer) : undefined;
  // Kept only once journaled: a line that cannot be written undoes the operation (sessions.ts).
  if (session.journaled)
    session.log({
      t: "op",
      operationId: op.operationId,
      input: request.input,
      ctx: request.ctx,
      ...(request.input === null ? { result } : {}),
      ...(keyed ? { key: keyed.key, fp: keyed.fingerprint, reply } : {}),
      obs: answerDigest(recorded),
      ...hashAfter(session.episode, recorded),
    });
  if (keyed) session.kept.keep(keyed, { rest: reply! });
}

/** The HTTP answer the REST facade sends for a result (the same status, headers and JSON text). */
function replyOf(answer: OperationResult): KeptReply {
  if (answer.body === undefined) return { status: answer.status, headers: { ...answer.headers }, body: null };
  return {
    status: answer.status,
    headers: { ...answer.headers, "content-type": "application/json;charset=UTF-8" },
    body: JSON.stringify(answer.body),
  };
}

/** Keeps (and journals) the agent's final answer on a session; call it inside the session's lock. */
function keepFinal(session: Session, message: string | null): void {
  session.episode.finish(message);
  session.log({ t: "final", message }); // a line that cannot be written undoes the finish (sessions.ts)
  session.finalMessage = message;
}

/**
 * Records the agent's final answer under the session's lock, as a score request with `final_message`
 * does: how an MCP session bound to the episode gives one (its `submit_final_answer` tool).
 */
export function finishSession(session: Session, message: string): Promise<void> {
  return session.run(() => keepFinal(session, message));
}

/** Scores a session under its lock, first keeping the final message when one is sent. */
export function scoreSession(
  session: Session,
  finalMessage: string | null | undefined,
  mode: RewardMode | undefined,
): Promise<Score> {
  return session.run((episode) => {
    if (finalMessage !== undefined) keepFinal(session, finalMessage);
    const score = episode.score(mode);
    if (session.journaled) session.log({ t: "score", hash: episode.site.digest() });
    return score;
  });
}
