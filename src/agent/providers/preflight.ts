/**
 * Preflight of a model server before a run: it answers and serves the model. `GET <base>/models` is
 * asked first; when the server has no such route (or lists nothing) a one-token request stands in. Any
 * failure is a ProviderUnavailableError with a one-line message, so a run against a server that is
 * down or serves another model stops before its first episode instead of scoring an outage as zeros.
 */
import type OpenAI from "openai";
import { APIError } from "openai";
import { AtlasGymError } from "../../errors.ts";
import { classify } from "./retry.ts";

export class ProviderUnavailableError extends AtlasGymError {
  override name = "ProviderUnavailableError";
}

/** Longest wait for a preflight request (the run's request timeout when shorter). */
export const PREFLIGHT_TIMEOUT_MS = 30_000;

export interface PreflightTarget {
  client: OpenAI;
  baseURL: string;
  model: string;
  timeoutMs: number;
  /** A one-token request for the model (chat or completions), used when the server lists no models. */
  probe: (options: OpenAI.RequestOptions) => Promise<unknown>;
}

const absent = (e: unknown) => e instanceof APIError && [404, 405, 501].includes(e.status ?? 0);

function reason(thrown: unknown): string {
  const { error } = classify(thrown);
  if (error.type === "connection")
    return `is unreachable (${/\((.+)\)/.exec(error.message)?.[1] ?? "connection failed"})`;
  if (error.type === "timeout") return "did not answer in time";
  if (error.type === "auth") return `rejected the API key (HTTP ${error.status})`;
  return `answered with an error (${error.status ? `HTTP ${error.status}: ` : ""}${error.message.split("\n")[0]})`;
}

export async function preflight(target: PreflightTarget, signal?: AbortSignal): Promise<void> {
  const { client, baseURL, model } = target;
  const options = { signal, timeout: Math.min(target.timeoutMs, PREFLIGHT_TIMEOUT_MS), maxRetries: 0 };
  const fail = (why: string) =>
    new ProviderUnavailableError(`model server ${baseURL} ${why}; no episode was run`);
  let served: string[] | undefined;
  try {
    const page = await client.models.list(options);
    served = page.data.map((m) => m.id);
  } catch (thrown) {
    if (!absent(thrown)) throw fail(reason(thrown));
  }
  if (served && served.length > 0) {
    if (served.includes(model)) return;
    const shown = served.slice(0, 5).join(", ") + (served.length > 5 ? `, … (${served.length} in all)` : "");
    throw fail(`does not serve model '${model}' (it serves: ${shown})`);
  }
  try {
    await target.probe(options);
  } catch (thrown) {
    if (thrown instanceof APIError && thrown.status === 404)
      throw fail(`does not serve model '${model}' (HTTP 404: ${thrown.message.split("\n")[0]})`);
    throw fail(reason(thrown));
  }
}
