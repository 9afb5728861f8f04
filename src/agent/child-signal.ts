/**
 * withChildSignal: runs `body` with its own abort signal that follows a longer-lived one (an eval run's,
 * an episode's). Clients may add an abort listener to every request's signal and never remove it (the
 * openai client does); on a short-lived child signal those die with the child instead of piling up on the
 * parent for the whole run. The one place the project scopes signals.
 */
import { setMaxListeners } from "node:events";

export async function withChildSignal<T>(
  parent: AbortSignal | undefined,
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const child = new AbortController();
  setMaxListeners(0, child.signal);
  const forward = () => child.abort(parent?.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener("abort", forward, { once: true });
  try {
    return await body(child.signal);
  } finally {
    parent?.removeEventListener("abort", forward);
  }
}
