/** Test helper: what a journal folder holds besides the server's lock (src/server/fleet/journal-lock.ts). */
import { readdirSync } from "node:fs";

export const sessionFiles = (dir: string): string[] =>
  readdirSync(dir).filter((name) => name !== "server.lock");
