/**
 * Opening a session on a task, as every surface does it (the /v1 API, and the MCP server binding its own
 * sessions): resolve the task, build the episode on a fork of the task's pristine site, and describe the
 * opening (messages, tools, limits) in the wire shape of `POST /v1/sessions`. Tool outputs carry the
 * site's canonical base URL (https://atlas-gym.atlassian.net), exactly as in `eval`, so a model trains on
 * the observations it is evaluated on; only the REST facade under `rest_base_url` answers with links to
 * the session's own address, for real REST clients that follow them.
 */
import { openingMessages } from "../agent/system-prompt.ts";
import { createEpisode } from "../env/episode.ts";
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
  limits: { max_tool_calls: number };
  /** Where the session's own site is served over REST. */
  rest_base_url: string;
}

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
    limits: { max_tool_calls: episode.expectation.budget },
    rest_base_url: `${origin}/s/${session.id}`,
  };
  if (keyed) {
    store.openings.keep(keyed, opening);
    session.openKey = keyed.key;
  }
  return { session, opening };
}
