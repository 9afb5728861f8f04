/**
 * The rollout's vocabulary: chat messages in the OpenAI shape, one policy turn (the assistant message
 * plus what the provider reported), the Policy interface shared by model providers and scripted
 * policies, and the trace of one episode.
 */
import type { Episode } from "../env/episode.ts";
import type { Expectation } from "../reward/expectation.ts";
import type { RewardMode, Score } from "../reward/score.ts";
import type { Level, Split } from "../scenarios/define-scenario.ts";
import type { FunctionTool } from "../tools/define-tool.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import type { ProviderErrorType } from "./provider-error-types.ts";

export type Role = "system" | "user" | "assistant" | "tool";

/** One tool call as the assistant emitted it; `arguments` is the JSON text (possibly malformed). */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A chat message in the OpenAI Chat Completions shape. */
export interface ChatMessage {
  role: Role;
  content: string | null;
  tool_calls?: ChatToolCall[];
  /** On tool messages: the id of the call this answers. */
  tool_call_id?: string;
  /** Reasoning text (a `<think>` block or a server's `reasoning_content`), when the model produced one. */
  reasoning?: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A provider failure, recorded on the trace (never thrown out of a rollout). */
export interface PolicyError {
  /** What failed (provider-error-types.ts lists each with its meaning). */
  type: ProviderErrorType;
  message: string;
  /** HTTP status, when the server answered. */
  status?: number;
}

/** What a policy returns for one turn. */
export interface PolicyTurn {
  /** The assistant message (role "assistant"). On a provider error: an empty assistant message. */
  message: ChatMessage;
  /** The raw model text, when available (raw: and local: providers, and openai: content). */
  raw?: string;
  usage?: TokenUsage;
  latencyMs: number;
  error?: PolicyError;
  /** What could not be parsed cleanly from the model's output (broken tool-call JSON, unclosed blocks). */
  problems?: string[];
  /** Requests made for this turn (1 + retries); absent for policies that make none. */
  attempts?: number;
}

/**
 * What a policy sees of its episode: what a model is shown (the offered tools, the call budget the
 * system prompt states, how many calls it has made), never the task or its expected values.
 */
export interface EpisodeView {
  readonly tools: readonly FunctionTool[];
  readonly budget: number;
  readonly callsMade: number;
}

export interface PolicyContext {
  view: EpisodeView;
  signal?: AbortSignal;
  /** Sample number (0..k-1) of this task, for policies that draw randomly. */
  sample?: number;
}

/**
 * Anything that maps the conversation so far to the next assistant message (model providers). It sees
 * the episode only through PolicyContext's view. `next` is a property, not a method, so that a TaskPolicy
 * (whose context is wider) can never pass for a Policy.
 */
export interface Policy {
  name: string;
  next: (messages: ChatMessage[], tools: FunctionTool[], ctx: PolicyContext) => Promise<PolicyTurn>;
  /** Optional set-up before a run (local: loads the model); throws an AtlasGymError with a clear message. */
  init?(): Promise<void>;
  /**
   * Optional check before a run that the provider answers and serves the model; throws a
   * ProviderUnavailableError with a one-line message when not.
   */
  preflight?(signal?: AbortSignal): Promise<void>;
  /** Optional release of resources after a run. */
  close?(): Promise<void>;
}

/** The context of a TaskPolicy: the view, and the episode itself with its task. */
export interface TaskPolicyContext extends PolicyContext {
  episode: Episode;
}

/**
 * A policy that reaches the task (its reference solution and expected values): the scripted policies
 * alone (`policy:<name>`, see scripted/policy-adapter.ts), which replay or perturb the reference. The
 * rollout hands the episode to these only.
 */
export interface TaskPolicy extends Omit<Policy, "next"> {
  readonly readsTask: true;
  next: (messages: ChatMessage[], tools: FunctionTool[], ctx: TaskPolicyContext) => Promise<PolicyTurn>;
}

/** Whatever the rollout can run: a model policy or a scripted one. */
export type AnyPolicy = Policy | TaskPolicy;

/**
 * Why an episode ended without a final answer: its call budget or turn limit ran out (a truncation of
 * the model's episode, scored on its end state like any other) or the model provider failed (not scored).
 */
export type Truncation = "budget" | "max_turns" | "provider_error";

/** One model request in the rollout and the tool calls its answer led to. */
export interface TraceTurn {
  /** Number of messages sent with the request. */
  request: number;
  turn: PolicyTurn;
  calls: ToolCallResult[];
}

/** The typed record of one episode. */
export interface EpisodeTrace {
  taskId: string;
  scenario: string;
  split: Split;
  index: number;
  level: Level;
  /** Workflow tasks only: the scenario id of each step's family, in order (Task.steps). */
  steps?: string[];
  /** Sample number (0..k-1) of this task. */
  sample: number;
  model: string;
  messages: ChatMessage[];
  turns: TraceTurn[];
  calls: ToolCallResult[];
  finalMessage: string | null;
  /** What the task asked for (the reward's Expectation), so reports can show it. */
  expectation?: Expectation;
  /** The turn limit the episode ran under (turn-limit.ts). */
  maxTurns: number;
  /** The model answered without a tool call. */
  terminated: boolean;
  truncated: boolean;
  truncation?: Truncation;
  error?: PolicyError;
  score: Score;
  durationMs: number;
}

export type { RewardMode };
