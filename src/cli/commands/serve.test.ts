import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listenError, parseBaseUrl, parseDuration } from "./serve.ts";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));

describe("serve options", () => {
  it("reads --session-ttl as seconds or with a unit", () => {
    const ttl = parseDuration("--session-ttl");
    expect([ttl("600"), ttl("90s"), ttl("10m"), ttl("1h"), ttl("1500ms")]).toEqual([
      600_000, 90_000, 600_000, 3_600_000, 1500,
    ]);
    for (const bad of ["0", "soon", "-5", "10d", "500ms", "8d"])
      expect(() => ttl(bad)).toThrow(/--session-ttl must be a duration between 1s and 7 days/);
  });

  it("reads --base-url as an http(s) origin with an optional path, without a trailing slash", () => {
    expect(parseBaseUrl("https://acme.atlassian.net/")).toBe("https://acme.atlassian.net");
    expect(parseBaseUrl("http://gym.local:8080/proxy/")).toBe("http://gym.local:8080/proxy");
    for (const bad of ["acme.atlassian.net", "ftp://x", "https://x/?a=1"])
      expect(() => parseBaseUrl(bad)).toThrow(/--base-url must be/);
  });

  it("rejects a bad --session-ttl before serving", () => {
    expect(() =>
      execFileSync(BIN, ["serve", "--session-ttl", "never"], { encoding: "utf8", stdio: "pipe" }),
    ).toThrow(/--session-ttl must be a duration/);
  });

  it("--help shows the --session-ttl and --site-ttl defaults in the unit they accept", () => {
    const help = execFileSync(BIN, ["serve", "--help"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(help).toContain("idle this long (seconds, or 90s, 10m, 1h) (default: 600 s)");
    expect(help).toContain("(/s/<id>) idle this long (seconds, or 90s, 10m, 1h) (default: 3600 s)");
  });

  it("refuses --host 0.0.0.0 without a token in one line, alone and as a fleet (--workers), starting nothing", () => {
    const { ATLAS_GYM_TOKEN: _, ...env } = process.env;
    for (const fleet of [[], ["--workers", "1"]]) {
      // The old fleet served here anyway and never exited: the timeout ends it and the test fails.
      const run = spawnSync(BIN, ["serve", "--port", "0", "--host", "0.0.0.0", ...fleet], {
        encoding: "utf8",
        env,
        timeout: 20_000,
      });
      expect(run.stdout, fleet.join(" ")).toBe("");
      expect(run.stderr).toBe(
        "error: refusing to listen on 0.0.0.0 without a token: anyone who can reach the port could change training episodes. Pass --token (or ATLAS_GYM_TOKEN), or listen on 127.0.0.1.\n",
      );
      expect(run.status).toBe(1);
    }
  });

  it("says in one line that a busy port is busy", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address() as { port: number };
    try {
      const run = spawnSync(BIN, ["serve", "--port", String(port)], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `error: port ${port} is already in use on 127.0.0.1; choose another with --port\n`,
      );
    } finally {
      busy.close();
    }
  });

  it("says a journal folder it cannot use is the folder's problem, not the port's", () => {
    const file = join(mkdtempSync(join(tmpdir(), "atlas-serve-")), "not-a-folder");
    writeFileSync(file, "");
    const run = spawnSync(BIN, ["serve", "--port", "0", "--journal", join(file, "journal")], {
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: cannot use .*not-a-folder.*\(ENOTDIR on mkdir\); check the --journal folder/,
    );
    const denied = Object.assign(new Error("EACCES"), {
      code: "EACCES",
      syscall: "open",
      path: "/j/x.jsonl",
    });
    expect(listenError(denied, { host: "127.0.0.1", port: 1 }, Error).message).toMatch(
      /cannot use \/j\/x.jsonl/,
    );
    const port = Object.assign(new Error("EACCES"), { code: "EACCES", syscall: "listen" });
    expect(listenError(port, { host: "127.0.0.1", port: 1 }, Error).message).toMatch(
      /cannot listen on 127.0.0.1:1/,
    );
  });
});
