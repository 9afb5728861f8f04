/**
 * The stored form of an episode (one line of episodes.jsonl): snake_case keys, and each tool call
 * stored once. The conversation keeps what the model said (assistant messages with their tool calls,
 * as emitted); each tool message only names the call it answers (`tool_call_id`); the trace's `calls`
 * hold what each call did (operation, status, observation) under the same `tool_call_id`; `turns` hold
 * per-request data and point at their assistant message by index. The raw model text is kept only when
 * parsing it had problems (otherwise the parsed message says the same). Fields of the trace this module
 * does not know (e.g. the task's `expectation`) are stored as they are, under a snake_case name.
 */
import type { ChatMessage, EpisodeTrace, PolicyError, Truncation } from "../agent/types.ts";
import type { Level, Split } from "../scenarios/define-scenario.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import { renameKeys, snakeCase } from "./json-keys.ts";

export interface StoredMessage {
  role: ChatMessage["role"];
  /** Absent on tool messages (their content is the call's observation). */
  content?: string | null;
  reasoning?: string;
  tool_calls?: ChatMessage["tool_calls"];
  tool_call_id?: string;
}

export interface StoredTurn {
  /** Number of messages sent with the request. */
  request: number;
  /** Index in `messages` of the assistant message this request produced (null on a provider error). */
  message: number | null;
  latency_ms: number;
  /** Requests retried after a failure in this turn. */
  retries: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
  problems?: string[];
  raw?: string;
  error?: PolicyError;
}

export interface StoredCall {
  /** The id of the assistant tool call this executed (and of the tool message answering it). */
  tool_call_id: string;
  operation_id: string | null;
  effect: "read" | "write" | null;
  status: number | null;
  ok: boolean;
  error_type: string | null;
  observation: string;
}

export interface EpisodeRecord {
  task_id: string;
  scenario: string;
  split: Split;
  index: number;
  level: Level;
  /** Workflow tasks only: the scenario id of each step's family, in order. */
  steps?: string[];
  sample: number;
  model: string;
  /** The turn limit the episode ran under (absent in records written before it was stored). */
  max_turns?: number;
  messages: StoredMessage[];
  turns: StoredTurn[];
  calls: StoredCall[];
  final_message: string | null;
  terminated: boolean;
  truncated: boolean;
  truncation?: Truncation;
  error?: PolicyError;
  /** Retries over all turns. */
  retries: number;
  /** The score with snake_case keys (components and violations as well). */
  score: { reward: number; passed: boolean; explanation: string; [key: string]: unknown };
  duration_ms: number;
  /** Data other modules add to the trace (e.g. `expectation`), stored as given. */
  [extra: string]: unknown;
}

const KNOWN = new Set([
  "taskId",
  "scenario",
  "split",
  "index",
  "level",
  "steps",
  "sample",
  "model",
  "maxTurns",
  "messages",
  "turns",
  "calls",
  "finalMessage",
  "terminated",
  "truncated",
  "truncation",
  "error",
  "score",
  "durationMs",
]);

const snakeItems = (items: unknown) =>
  Array.isArray(items) ? items.map((item: object) => renameKeys(item, snakeCase)) : items;

function storedScore(score: EpisodeTrace["score"]): EpisodeRecord["score"] {
  const top = renameKeys(score, snakeCase);
  return {
    ...top,
    components: snakeItems(score.components),
    violations: snakeItems(score.violations),
  } as unknown as EpisodeRecord["score"];
}

/** Tool calls paired with the tool messages that answer them, in order. */
function callIds(messages: readonly ChatMessage[]): string[] {
  return messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id ?? "");
}

/** One call of a trace as stored, under the id of the assistant tool call it executed. */
export function storedCall(c: ToolCallResult, toolCallId: string): StoredCall {
  return {
    tool_call_id: toolCallId,
    operation_id: c.operationId,
    effect: c.effect,
    status: c.status,
    ok: c.ok,
    error_type: c.errorType,
    observation: c.observation,
  };
}

export function toEpisodeRecord(trace: EpisodeTrace): EpisodeRecord {
  const ids = callIds(trace.messages);
  const assistants = trace.messages.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
  let answered = 0;
  const turns = trace.turns.map(({ request, turn }): StoredTurn => {
    const retries = Math.max(0, (turn.attempts ?? 1) - 1);
    return {
      request,
      message: turn.error ? null : (assistants[answered++] ?? null),
      latency_ms: turn.latencyMs,
      retries,
      ...(turn.usage
        ? {
            usage: {
              prompt_tokens: turn.usage.promptTokens,
              completion_tokens: turn.usage.completionTokens,
            },
          }
        : {}),
      ...(turn.problems?.length ? { problems: turn.problems, raw: turn.raw } : {}),
      ...(turn.error ? { error: turn.error } : {}),
    };
  });
  const extras = Object.fromEntries(
    Object.entries(trace)
      .filter(([key, value]) => !KNOWN.has(key) && value !== undefined)
      .map(([key, value]) => [snakeCase(key), value]),
  );
  return {
    task_id: trace.taskId,
    scenario: trace.scenario,
    split: trace.split,
    index: trace.index,
    level: trace.level,
    ...(trace.steps ? { steps: trace.steps } : {}),
    sample: trace.sample,
    model: trace.model,
    max_turns: trace.maxTurns,
    messages: trace.messages.map((m): StoredMessage => {
      if (m.role === "tool") return { role: "tool", tool_call_id: m.tool_call_id ?? "" };
      return renameKeys(m, snakeCase) as unknown as StoredMessage;
    }),
    turns,
    calls: trace.calls.map((c, i) => storedCall(c, ids[i] ?? "")),
    final_message: trace.finalMessage,
    terminated: trace.terminated,
    truncated: trace.truncated,
    ...(trace.truncation ? { truncation: trace.truncation } : {}),
    ...(trace.error ? { error: trace.error } : {}),
    retries: turns.reduce((n, t) => n + t.retries, 0),
    score: storedScore(trace.score),
    duration_ms: trace.durationMs,
    ...extras,
  };
}

/** The episode ended because the model provider failed (after its retries), not because of the model. */
export const isProviderError = (record: Pick<EpisodeRecord, "truncation" | "error">) =>
  record.truncation === "provider_error" && record.error !== undefined;

/**
 * How an episode ended: `terminated` (a final answer), `budget` or `max_turns` (truncated: its call
 * budget or turn limit ran out; scored on its end state like any other, and no model error), or
 * `provider_error` (the provider failed; not scored). `truncated` names a truncation a record leaves
 * unnamed.
 */
export type Ending = "terminated" | "budget" | "max_turns" | "provider_error" | "truncated";

/** The endings that are truncations of the model's episode (scored, counted in results' `truncated`). */
export const TRUNCATED_ENDINGS: readonly Ending[] = ["budget", "max_turns", "truncated"];

export function endingOf(record: Pick<EpisodeRecord, "terminated" | "truncation" | "error">): Ending {
  if (isProviderError(record)) return "provider_error";
  if (record.terminated) return "terminated";
  return record.truncation === "budget" || record.truncation === "max_turns"
    ? record.truncation
    : "truncated";
}

/**
 * The conversation as it was sent: each tool message with its call's observation as content. Calls
 * pair with tool messages in order.
 */
export function conversation(record: EpisodeRecord): ChatMessage[] {
  let next = 0;
  return record.messages.map((m) => {
    if (m.role !== "tool") return { role: m.role, content: m.content ?? null, ...pick(m) };
    const call = record.calls[next++];
    return { role: "tool", tool_call_id: m.tool_call_id, content: call?.observation ?? "" };
  });
}

const pick = (m: StoredMessage) => ({
  ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}),
  ...(m.reasoning !== undefined ? { reasoning: m.reasoning } : {}),
});

const RECORD_KEYS = new Set([...KNOWN].map(snakeCase).concat(["retries"]));
const SCORE_KEYS = new Set([
  "reward",
  "mode",
  "paper_reward",
  "passed",
  "components",
  "violations",
  "explanation",
]);

/**
 * What other modules stored beside the trace (e.g. the task's `expectation`, an end-state diff), as
 * [title, value] pairs: unknown fields of the record, then unknown fields of its score.
 */
export function extrasOf(record: EpisodeRecord): [string, unknown][] {
  return [
    ...Object.entries(record).filter(([key]) => !RECORD_KEYS.has(key)),
    ...Object.entries(record.score)
      .filter(([key]) => !SCORE_KEYS.has(key))
      .map(([key, value]): [string, unknown] => [`score.${key}`, value]),
  ];
}
