/**
 * The one listening rule of every server that reads or changes state (issue #20): it listens beyond
 * loopback only when it requires a token. `serve` (src/server/start-gym-server.ts), its fleet router
 * (`serve --workers`, src/server/fleet/start-fleet.ts), `view` (src/view/start-view-server.ts) and the
 * bare REST facade (src/http/start-server.ts) all keep to it; a new listener should call
 * `refuseOpenListen` before it binds anything.
 */
import { UsageError } from "../errors.ts";

/** Whether a host name or address reaches this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare) || bare === "::ffff:127.0.0.1"
  );
}

export interface ListenGuard {
  /** The interface about to be bound (`0.0.0.0`, `::`, `""` and a LAN address are all beyond loopback). */
  host: string;
  /** The token the server will require; none (or blank) means it answers anyone. */
  token: string | null | undefined;
  /** What anyone who reaches the port could do, completing "anyone who can reach the port could …". */
  exposes?: string;
  /** How the user gives the token, completing "Pass …". */
  tokenFlag?: string;
}

/**
 * Throws a UsageError (the CLI prints it as one `error:` line and exits 1) when a server without a token
 * is about to listen beyond loopback; returns otherwise. Call it before starting or binding anything.
 */
export function refuseOpenListen({
  host,
  token,
  exposes = "change training episodes",
  tokenFlag = "--token (or ATLAS_GYM_TOKEN)",
}: ListenGuard): void {
  if (token?.trim() || isLoopback(host)) return; // a blank token guards nothing
  throw new UsageError(
    `refusing to listen on ${host === "" ? '""' : host} without a token: anyone who can reach the port could ${exposes}. Pass ${tokenFlag}, or listen on 127.0.0.1.`,
  );
}
