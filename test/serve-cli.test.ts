/**
 * `atlas-gym serve` as users run it: the real binary in a child process, the default site at the root,
 * isolated sites under /s/<id>, and Basic auth checked with --auth against the printed credentials.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, spawnServe } from "./support/serve-process.ts";

const children: ChildProcess[] = [];

async function startServe(args: string[]): Promise<{ url: string; output: string }> {
  const started = spawnServe(["--port", "0", ...args], (output) => {
    return output.includes("Isolated sites") && (!args.includes("--auth") || output.includes("API token"));
  });
  children.push((await started).child);
  return started;
}

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
});

const basic = (email: string, token: string) =>
  `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;

describe("atlas-gym serve", () => {
  it("prints help for the CLI and the command", () => {
    expect(execFileSync(BIN, ["--help"], { encoding: "utf8" })).toMatch(/serve/);
    expect(execFileSync(BIN, ["serve", "--help"], { encoding: "utf8" })).toMatch(/--seed/);
    // Users run the command from their own directories, not the repository's.
    expect(execFileSync(BIN, ["--help"], { encoding: "utf8", cwd: tmpdir() })).toMatch(/serve/);
  });

  it("rejects a bad --port with a clear message", () => {
    expect(() => execFileSync(BIN, ["serve", "--port", "abc"], { encoding: "utf8", stdio: "pipe" })).toThrow(
      /--port must be an integer/,
    );
  });

  it("serves the default site and isolated sites that do not affect each other", async () => {
    const { url } = await startServe(["--seed", "5"]);
    const label = async (prefix: string) =>
      (
        (await (await fetch(`${url}${prefix}/rest/api/3/issue/ENG-1?fields=labels`)).json()) as {
          fields: { labels: string[] };
        }
      ).fields.labels;
    const edit = await fetch(`${url}/s/alpha/rest/api/3/issue/ENG-1`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ update: { labels: [{ add: "only-in-alpha" }] } }),
    });
    expect(edit.status).toBe(204);
    expect(await label("/s/alpha")).toContain("only-in-alpha");
    expect(await label("/s/beta")).not.toContain("only-in-alpha");
    expect(await label("")).not.toContain("only-in-alpha");
    const self = ((await (await fetch(`${url}/s/beta/rest/api/3/issue/ENG-1`)).json()) as { self: string })
      .self;
    expect(self.startsWith(`${url}/s/beta/rest/api/3/issue/`)).toBe(true);
  });

  it("uses --base-url for self links and serverInfo (clients that decide Cloud by host name)", async () => {
    const { url, output } = await startServe(["--base-url", "https://acme.atlassian.net/"]);
    expect(output).toContain("public base URL https://acme.atlassian.net");
    const info = await (await fetch(`${url}/rest/api/2/serverInfo`)).json();
    expect(info).toMatchObject({ baseUrl: "https://acme.atlassian.net", deploymentType: "Cloud" });
    const issue = (await (await fetch(`${url}/s/x/rest/api/2/issue/ENG-1?fields=summary`)).json()) as {
      self: string;
    };
    expect(issue.self).toBe("https://acme.atlassian.net/s/x/rest/api/2/issue/10000");
  });

  it("checks Basic auth against the printed credentials with --auth", async () => {
    const { url, output } = await startServe(["--auth"]);
    const [, email, token] = output.match(/email (\S+)\s+API token (\S+)/)!;
    const anonymous = await fetch(`${url}/rest/api/3/myself`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      errorMessages: ["Client must be authenticated to access this resource."],
      errors: {},
    });
    const wrong = await fetch(`${url}/wiki/api/v2/spaces`, {
      headers: { authorization: basic(email!, "wrong") },
    });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${url}/rest/api/3/myself`, { headers: { authorization: basic(email!, token!) } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { emailAddress: string }).emailAddress).toBe(email);
  });
});
