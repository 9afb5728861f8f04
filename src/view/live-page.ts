/**
 * Live: the sessions a running env server holds (`atlas-gym view --env <url>`), read through its
 * read-only /v1/live routes with its bearer token, and each session's trace as it grows — the page
 * polls the view for the calls after the last one it shows, and the view answers with their HTML (one
 * renderer for stored and live calls). An unreachable server or a closed session is a message, not an error page.
 */
import { esc } from "../report-kit/escape-html.ts";
import { callHtml, pre } from "./conversation-html.ts";
import { htmlTable, page, problemBox } from "./layout.ts";

export interface LiveSession {
  session_id: string;
  task_id: string;
  scenario: string;
  calls: number;
  budget: number;
  final_message: string | null;
  age_seconds: number;
  idle_seconds: number;
}

export interface LiveCall {
  i: number;
  name: string;
  arguments: unknown;
  operation_id: string | null;
  status: number | null;
  ok: boolean;
  output?: string;
  error?: string;
  error_type?: string | null;
}

export interface LiveTrace extends LiveSession {
  prompt: string;
  since: number;
  trace: LiveCall[];
}

/** Reads the env server's live routes. */
export function createLiveClient(envUrl: string, token: string | null) {
  const base = envUrl.replace(/\/+$/, "");
  /** A failure carries the env server's status when it answered (404: no such session), none when unreachable. */
  async function get<T>(
    path: string,
  ): Promise<{ ok: true; value: T } | { ok: false; error: string; status?: number }> {
    try {
      const res = await fetch(`${base}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(5000),
      });
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      if (!res.ok)
        return { ok: false, error: `${res.status}: ${body.error ?? res.statusText}`, status: res.status };
      return { ok: true, value: body as T };
    } catch (error) {
      return { ok: false, error: `cannot reach the env server at ${base} (${(error as Error).message})` };
    }
  }
  return {
    url: base,
    sessions: () => get<{ sessions: LiveSession[] }>("/v1/live/sessions"),
    trace: (sid: string, since: number) =>
      get<LiveTrace>(`/v1/live/sessions/${encodeURIComponent(sid)}?since=${since}`),
  };
}

export type LiveClient = ReturnType<typeof createLiveClient>;

export function liveCallsHtml(calls: readonly LiveCall[]): string {
  return calls
    .map((c) =>
      callHtml(
        c.name,
        c.arguments,
        {
          tool_call_id: "",
          operation_id: c.operation_id,
          effect: null,
          status: c.status,
          ok: c.ok,
          error_type: c.error_type ?? null,
          observation: c.output ?? c.error ?? "",
        },
        c.i,
      ),
    )
    .join("\n");
}

export async function liveListPage(client: LiveClient | undefined): Promise<string> {
  if (!client)
    return page(
      { title: "Live" },
      `<p>Start the view with <code>--env http://127.0.0.1:4010</code> (and <code>--env-token</code> when the env server has a token) to watch its sessions.</p>`,
    );
  const answer = await client.sessions();
  if (!answer.ok) return page({ title: "Live" }, problemBox([answer.error]));
  const rows = answer.value.sessions.map((s) => [
    `<a href="/live/${esc(s.session_id)}">${esc(s.session_id)}</a>`,
    esc(s.task_id),
    esc(`${s.calls} / ${s.budget}`),
    s.final_message === null ? "—" : '<span class="ok">answered</span>',
    esc(s.age_seconds),
    esc(s.idle_seconds),
  ]);
  return page(
    { title: "Live" },
    `<p>Env server <code>${esc(client.url)}</code>: ${rows.length} open session${rows.length === 1 ? "" : "s"}. <a href="/live">refresh</a></p>
${rows.length ? htmlTable(["session", "task", "calls / budget", "final answer", "age (s)", "idle (s)"], rows, [2, 4, 5]) : "<p>No session is open.</p>"}`,
  );
}

/**
 * One watched session's page and its status: 404 for a session the env server does not have (or with no
 * env server watched), 502 when the env server cannot be read.
 */
export async function liveSessionPage(
  client: LiveClient | undefined,
  sid: string,
): Promise<{ status: 200 | 404 | 502; html: string }> {
  if (!client) return { status: 404, html: await liveListPage(client) };
  const answer = await client.trace(sid, 0);
  if (!answer.ok)
    return {
      status: liveFailureStatus(answer.status),
      html: page(
        { title: `Live ${sid}` },
        `${problemBox([answer.error])}<p><a href="/live">← sessions</a></p>`,
      ),
    };
  return { status: 200, html: sessionPage(sid, answer.value) };
}

/** The view's status for a failed read of the env server: its 404 passed on, anything else a bad gateway. */
export function liveFailureStatus(status: number | undefined): 404 | 502 {
  return status === 404 ? 404 : 502;
}

function sessionPage(sid: string, t: LiveTrace): string {
  return page(
    { title: `Live ${sid}`, data: { live: sid, next: String(t.trace.length) } },
    `<p><a href="/live">← sessions</a> · task <code>${esc(t.task_id)}</code> · budget ${esc(t.budget)} calls · <span id="live-status" role="status">watching (updates every second)</span></p>
<h2>Task</h2>${pre(t.prompt, "prompt")}
<h2>Calls</h2><div id="live-calls" aria-live="polite">${liveCallsHtml(t.trace)}</div>
<div id="live-final">${t.final_message === null ? "" : `<div class="label">final answer</div>${pre(t.final_message)}`}</div>`,
  );
}
