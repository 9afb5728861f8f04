import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));

describe("atlas-gym view", () => {
  it("prints its URL (with the token) and serves the runs page there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-view-cli-"));
    const child = spawn(
      BIN,
      ["view", dir, "--port", "0", "--token", "abc", "--play-out", join(dir, "play")],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /atlas-gym view at (http:\/\/127\.0\.0\.1:\d+\/\?token=abc)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`view exited with ${code}: ${out}`)));
      });
      expect((await fetch(url.replace("?token=abc", ""))).status).toBe(401);
      const login = await fetch(url, { redirect: "manual" });
      expect(login.status).toBe(303);
      const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
      const page = await fetch(url.replace("?token=abc", ""), { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("No eval runs found yet");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses --host 0.0.0.0 without its own token in one line, even holding the env server's", () => {
    const { ATLAS_GYM_VIEW_TOKEN: _, ...env } = process.env;
    const dir = mkdtempSync(join(tmpdir(), "atlas-view-cli-"));
    // The old view served here anyway and never exited: the timeout ends it and the test fails.
    const run = spawnSync(
      BIN,
      ["view", dir, "--port", "0", "--host", "0.0.0.0", "--env", "http://127.0.0.1:4521", "--env-token", "T"],
      { encoding: "utf8", env, timeout: 20_000 },
    );
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "error: refusing to listen on 0.0.0.0 without a token: anyone who can reach the port could read the runs and the watched env server's live sessions, and play tasks. Pass --token (or ATLAS_GYM_VIEW_TOKEN), or listen on 127.0.0.1.\n",
    );
    expect(run.status).toBe(1);
  });

  it("notes a run folder that does not exist, and serves all the same (runs may appear there)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-view-cli-"));
    const missing = join(dir, "no-such-runs");
    const child = spawn(BIN, ["view", missing, "--port", "0", "--play-out", join(dir, "play")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const note = await new Promise<string>((resolve, reject) => {
        let err = "";
        child.stderr.on("data", (chunk: Buffer) => {
          err += chunk.toString();
          if (err.includes("\n")) resolve(err);
        });
        child.once("exit", (code) => reject(new Error(`view exited with ${code}: ${err}`)));
      });
      expect(note).toBe(
        `note: ${missing} does not exist (yet): runs written there will appear; check the path if none do\n`,
      );
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses a bad --env and a busy port in one line each", async () => {
    const bad = spawnSync(BIN, ["view", "--env", "localhost:4010"], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("--env must be the env server's http(s) URL");
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address() as { port: number };
    try {
      const run = spawnSync(BIN, ["view", "--port", String(port)], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `error: port ${port} is already in use on 127.0.0.1; choose another with --port\n`,
      );
    } finally {
      busy.close();
    }
  });
});
