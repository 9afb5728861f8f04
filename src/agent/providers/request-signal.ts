/**
 * A per-request abort signal that follows the caller's signal. The openai client adds an abort listener
 * to the signal of every request and never removes it, so handing it a long-lived signal (a whole eval
 * run's) piles up listeners; this one is dropped after each request.
 */
export async function withRequestSignal<T>(
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (outer?.aborted) controller.abort(outer.reason);
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    outer?.removeEventListener("abort", onAbort);
  }
}
