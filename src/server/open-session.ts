/**
 * Opening a session on a task, as every surface does it (the /v1 API, and the MCP server binding its own
 * sessions): resolve the task, build the episode on a fork of the task's pristine site, and describe the
 * opening (messages, tools, limits) in the wire shape of `POST /v1/sessions`. Tool outputs carry the
 * site's canonical base URL (https://atlas-gym.atlassian.net), exactly as in `eval`, so a model trains on
 * the observations it is evaluated on; only the REST facade under `rest_base_url` answers with links to
 * the session's own address, for real REST clients that follow them.
 */
import { openingMessages } from "../agent/system-prompt.ts";
import { turnLimit } from "../agent/turn-limit.ts";
import { createEpisode, type Episode } from "../env/episode.ts";
import type { FunctionTool } from "../tools/define-tool.ts";
import type { KeyedRequest } from "./idempotency.ts";
import type { Session, SessionStore } from "./sessions.ts";
import type { TaskRequest, TaskSource } from "./task-source.ts";

export interface SessionOpening {
  session_id: string;
  task_id: string;
  scenario: string;
  split: string;
  index: number;
  seed: number;
  messages: { role: "system" | "user"; content: string }[];
  tools: FunctionTool[];
  limits: TaskLimits;
  /** Workflow tasks only: the scenario id of each step's family, in order. */
  steps?: string[];
  /** Where the session's own site is served over REST. */
  rest_base_url: string;
}

/**
 * A task's limits as the server states them (the opening's `limits`, the task listing's fields): its call
 * budget, and its turn limit by the rule every runner uses (turn-limit.ts), which trainers read rather
 * than a constant of their own.
 */
export interface TaskLimits {
  max_tool_calls: number;
  /** Model requests (turns) the episode needs at most: the call budget + 1 for the final answer. */
  max_turns: number;
}

export const taskLimits = (episode: Episode): TaskLimits => ({
  max_tool_calls: episode.expectation.budget,
  max_turns: turnLimit(episode.expectation),
});

/** `{ steps }` for a workflow task (spread into the wire shapes that describe a task), else nothing. */
export const stepsOf = (episode: Episode): { steps?: string[] } =>
  episode.task.steps ? { steps: [...episode.task.steps] } : {};

/**
 * Opens a session (throws EnvRequestError for a bad request, SessionCapacityError when full).
 * `origin` is the server's base URL, e.g. http://127.0.0.1:4010. `restoreId` reopens a journaled session.
 * With an idempotency key, a retry of an opening gets the session the first one opened (`replayed`).
 */
export function openSession(
  store: SessionStore,
  tasks: TaskSource,
  request: TaskRequest,
  origin: string,
  restoreId?: string,
  keyed?: KeyedRequest,
): { session: Session; opening: SessionOpening; replayed?: boolean } {
  const kept = keyed && restoreId === undefined ? store.openings.find(keyed) : undefined;
  if (kept) return { session: store.get(kept.session_id), opening: kept, replayed: true };
  const session = store.create(
    (id) => {
      const { scenario, task, site } = tasks.resolve(request);
      return createEpisode(scenario, task, { initialSite: site, restBaseUrl: `${origin}/s/${id}` });
    },
    { opening: { request, origin, ...(keyed ? { key: keyed.key, fp: keyed.fingerprint } : {}) }, restoreId },
  );
  const { episode } = session;
  const opening: SessionOpening = {
    session_id: session.id,
    task_id: episode.task.id,
    scenario: episode.scenario.id,
    split: episode.task.split,
    index: episode.task.index,
    seed: episode.task.seed,
    messages: openingMessages(episode),
    tools: episode.functionTools(),
    limits: taskLimits(episode),
    ...stepsOf(episode),
    rest_base_url: `${origin}/s/${session.id}`,
  };
  if (keyed) {
    store.openings.keep(keyed, opening);
    session.openKey = keyed.key;
  }
  return { session, opening };
}
