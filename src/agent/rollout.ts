/**
 * runEpisode: the rollout loop. The system prompt and the task prompt open the conversation; the policy
 * answers turn by turn; each tool call in a turn is executed in order on the episode and answered with a
 * tool message. The episode terminates when the policy answers without a tool call, and is truncated
 * when the call budget is spent, max turns are reached (turn-limit.ts: the task's budget + 1 unless the
 * caller gives a limit) or the provider fails. Everything goes on the trace, which is scored; a
 * provider failure is data on the trace, never an exception out of here.
 */

import type { Episode } from "../env/episode.ts";
import type { RewardMode } from "../reward/score.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import { systemPrompt } from "./system-prompt.ts";
import { toolMessage, toRequest } from "./tool-calls.ts";
import { turnLimit } from "./turn-limit.ts";
import type {
  AnyPolicy,
  ChatMessage,
  EpisodeTrace,
  EpisodeView,
  PolicyError,
  TraceTurn,
  Truncation,
} from "./types.ts";

export interface RolloutOptions {
  /** Model requests at most (default: the task's, `turnLimit` in turn-limit.ts: its call budget + 1). */
  maxTurns?: number;
  signal?: AbortSignal;
  /** Model name recorded on the trace (default: the policy's name). */
  model?: string;
  /** Sample number (0..k-1) of this task. */
  sample?: number;
  /** Reward mode of the trace's score (default "paper"). */
  reward?: RewardMode;
}

export async function runEpisode(
  episode: Episode,
  policy: AnyPolicy,
  options: RolloutOptions = {},
): Promise<EpisodeTrace> {
  const started = performance.now();
  const maxTurns = turnLimit(episode.expectation, options.maxTurns);
  const sample = options.sample ?? 0;
  const tools = episode.functionTools();
  const view: EpisodeView = {
    tools,
    budget: episode.expectation.budget,
    get callsMade() {
      return episode.calls.length;
    },
  };
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt(episode) },
    { role: "user", content: episode.task.prompt },
  ];
  const turns: TraceTurn[] = [];
  let finalMessage: string | null = null;
  let terminated = false;
  let truncation: Truncation | undefined;
  let error: PolicyError | undefined;

  while (!terminated && !truncation) {
    if (turns.length >= maxTurns) {
      truncation = "max_turns";
      break;
    }
    if (options.signal?.aborted) {
      truncation = "provider_error";
      error = { type: "aborted", message: "The run was aborted before this request." };
      break;
    }
    const request = messages.length;
    const ctx = { view, signal: options.signal, sample };
    const turn =
      "readsTask" in policy
        ? await policy.next(messages.slice(), tools, { ...ctx, episode })
        : await policy.next(messages.slice(), tools, ctx);
    const calls: ToolCallResult[] = [];
    turns.push({ request, turn, calls });
    if (turn.error) {
      truncation = "provider_error";
      error = turn.error;
      break;
    }
    messages.push(turn.message);
    const toolCalls = turn.message.tool_calls ?? [];
    if (toolCalls.length === 0) {
      finalMessage = turn.message.content ?? "";
      episode.finish(finalMessage);
      terminated = true;
      break;
    }
    for (const call of toolCalls) {
      const result = episode.step(toRequest(call));
      calls.push(result);
      messages.push(toolMessage(call, result));
      if (result.errorType === "budget") {
        truncation = "budget";
        break;
      }
    }
  }

  return {
    taskId: episode.task.id,
    scenario: episode.scenario.id,
    split: episode.task.split,
    index: episode.task.index,
    level: episode.task.level,
    ...(episode.task.steps ? { steps: [...episode.task.steps] } : {}),
    sample,
    model: options.model ?? policy.name,
    messages,
    turns,
    calls: [...episode.calls],
    finalMessage,
    expectation: episode.expectation,
    maxTurns,
    terminated,
    truncated: truncation !== undefined,
    ...(truncation ? { truncation } : {}),
    ...(error ? { error } : {}),
    score: episode.score(options.reward ?? "paper"),
    durationMs: performance.now() - started,
  };
}
