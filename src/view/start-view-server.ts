/**
 * Starts the view app on host:port (loopback by default) with the HTTP listener the env server uses.
 * Beyond loopback only with its token (the rule every server keeps, src/http/listen-guard.ts): the view
 * shows runs, a watched env server's live sessions (read with that server's token) and Play.
 * A port that is taken or not ours to bind is a UsageError with one line, not a stack trace.
 */
import { UsageError } from "../errors.ts";
import { refuseOpenListen } from "../http/listen-guard.ts";
import { listen } from "../http/start-server.ts";
import { createViewApp } from "./create-view-app.ts";
import { createLiveClient } from "./live-page.ts";

export interface ViewServerOptions {
  roots: readonly string[];
  playOut: string;
  port: number;
  /** Beyond loopback only with `token`. */
  host?: string;
  /** Required on every page (`view --token` / ATLAS_GYM_VIEW_TOKEN); the env server's token is `envToken`. */
  token?: string | null;
  /** A running env server to watch, and its bearer token. */
  env?: string;
  envToken?: string | null;
  now?: () => Date;
}

export async function startViewServer(options: ViewServerOptions) {
  const host = options.host ?? "127.0.0.1";
  refuseOpenListen({
    host,
    token: options.token,
    exposes: "read the runs and the watched env server's live sessions, and play tasks",
    tokenFlag: "--token (or ATLAS_GYM_VIEW_TOKEN)",
  });
  const { app, store } = createViewApp({
    roots: options.roots,
    playOut: options.playOut,
    token: options.token,
    live: options.env ? createLiveClient(options.env, options.envToken ?? null) : undefined,
    now: options.now,
  });
  const server = await listen(app.fetch, options.port, host).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE")
      throw new UsageError(`port ${options.port} is already in use on ${host}; choose another with --port`);
    if (error.code === "EACCES" || error.code === "EADDRNOTAVAIL")
      throw new UsageError(
        `cannot listen on ${host}:${options.port} (${error.code}); choose another --port or --host`,
      );
    throw error;
  });
  return { ...server, store };
}
