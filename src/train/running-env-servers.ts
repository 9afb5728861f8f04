/**
 * `atlas-gym train --server <url>[,<url>...]`: the run uses env servers that are already running (one
 * server, a fleet from `serve --workers N`, or several servers, comma-separated, which the trainer's
 * client takes in turn) instead of starting its own. Each one must answer /health before the trainer
 * starts, so a server that is down is reported by address and nothing is launched; closing leaves them
 * running (they are not the run's to stop).
 */
import { UsageError } from "../errors.ts";

export interface RunEnvServers {
  /** What the trainer gets as `--server`: one URL, or several comma-separated. */
  url: string;
  /** Sessions open now, summed over the servers' /health (null when one does not say). */
  openSessions(): Promise<number | null>;
  close(): Promise<void>;
  /** How the launcher's last line names what happens to the servers. */
  readonly closing: string;
}

/** Checks every URL answers /health; throws a UsageError naming each one that does not. */
export async function useRunningEnvServers(list: string, token?: string): Promise<RunEnvServers> {
  const urls = list
    .split(",")
    .map((u) => u.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  if (urls.length === 0)
    throw new UsageError(`--server needs a URL such as http://10.0.0.5:4010, got "${list}"`);
  for (const url of urls)
    if (!/^https?:\/\/[^/\s]+$/.test(url))
      throw new UsageError(`--server URLs must look like http://10.0.0.5:4010, got "${url}"`);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const health = async (url: string): Promise<{ sessions?: unknown }> => {
    const response = await fetch(`${url}/health`, { headers, signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return (await response.json()) as { sessions?: unknown };
  };
  const down: string[] = [];
  for (const url of urls)
    await health(url).catch((error: Error) =>
      down.push(`${url} (${error.cause instanceof Error ? error.cause.message : error.message})`),
    );
  if (down.length > 0)
    throw new UsageError(
      `${down.length} of ${urls.length} env servers given with --server do not answer /health, so training was not started: ${down.join("; ")}. Start them with \`atlas-gym serve\` (or \`serve --workers N\`), or leave out --server to let train start one.`,
    );
  return {
    url: urls.join(","),
    closing: "env servers left running",
    async openSessions() {
      const counts = await Promise.all(
        urls.map((url) =>
          health(url)
            .then((h) => h.sessions)
            .catch(() => null),
        ),
      );
      return counts.every((c) => typeof c === "number")
        ? (counts as number[]).reduce((a, b) => a + b, 0)
        : null;
    },
    async close() {},
  };
}
