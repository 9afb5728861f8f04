/**
 * The view keeps the listening rule of every server (src/http/listen-guard.ts): beyond loopback only with
 * its own token, whether or not it watches a token-locked env server (whose token it holds).
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { startViewServer } from "./start-view-server.ts";

const dir = mkdtempSync(join(tmpdir(), "atlas-view-listen-"));
const base = { roots: [dir], playOut: join(dir, "play"), env: "http://127.0.0.1:1", envToken: "env-secret" };

/** A loopback port free right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Whether nothing listens on the port (on any interface): we can take it on all of them ourselves. */
async function stillFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
  });
}

describe("startViewServer beyond loopback", () => {
  it("refuses without a token, before listening, on every spelling of 'all interfaces' and a LAN address", async () => {
    for (const host of ["0.0.0.0", "::", "0", "", "10.0.0.5"]) {
      const port = await freePort();
      for (const token of [undefined, null, ""]) {
        // One that starts after all (the bug) is closed again, so a failing run leaves nothing listening.
        const outcome = await startViewServer({ ...base, port, host, token }).then(
          async (started) => {
            await started.close();
            return `started at ${started.url}`;
          },
          (error: Error) => error,
        );
        expect(outcome, `${JSON.stringify(host)} ${token}`).toBeInstanceOf(UsageError);
        expect((outcome as Error).message).toMatch(
          /^refusing to listen on \S+ without a token: anyone who can reach the port could read the runs and the watched env server's live sessions, and play tasks\. Pass --token \(or ATLAS_GYM_VIEW_TOKEN\), or listen on 127\.0\.0\.1\.$/,
        );
      }
      expect(await stillFree(port), JSON.stringify(host)).toBe(true);
    }
  });

  it("starts there with its token, and every page then needs it", async () => {
    const server = await startViewServer({ ...base, port: 0, host: "0.0.0.0", token: "view-secret" });
    try {
      const local = server.url.replace("0.0.0.0", "127.0.0.1");
      expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      for (const path of ["/", "/live", "/play"]) {
        expect((await fetch(`${local}${path}`)).status, path).toBe(401);
        expect(
          (await fetch(`${local}${path}`, { headers: { authorization: "Bearer env-secret" } })).status,
        ).toBe(401);
      }
      const page = await fetch(`${local}/`, { headers: { authorization: "Bearer view-secret" } });
      expect(page.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("stays on loopback without a token as before", async () => {
    const server = await startViewServer({ ...base, port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
