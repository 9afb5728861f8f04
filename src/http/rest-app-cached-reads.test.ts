/**
 * The REST facade's cached reads over real HTTP (served by @hono/node-server, as `serve` does): a read
 * answered from the cache goes through the same auth decision as a computed one, is answered for the
 * acting user the request names, and tells the observer exactly what the computed answer told it.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Operation } from "../sandbox/define-operation.ts";
import type { OperationResult } from "../sandbox/execute.ts";
import { createRestApp, type ObservedRequest } from "./create-rest-app.ts";
import { createSiteRegistry } from "./site-registry.ts";
import { type Listening, listen } from "./start-server.ts";

const basic = (email: string, token: string) =>
  `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;

const servers: Listening[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function serve(options: Omit<Parameters<typeof createRestApp>[0], "sites"> = {}) {
  const sites = createSiteRegistry(3);
  const server = await listen(createRestApp({ sites, ...options }).fetch, 0);
  servers.push(server);
  return { sites, url: server.url };
}

describe("cached reads on the REST facade", () => {
  it("refuse a request without the credentials, or with wrong ones, before and after a hit", async () => {
    const credentials = { email: "agent@example.com", apiToken: "t0ken" };
    const { url } = await serve({ credentials });
    const path = `${url}/rest/api/3/issue/ENG-1?fields=summary`;
    const asking = (authorization?: string) =>
      fetch(path, { headers: authorization ? { authorization } : {} }).then(async (res) => ({
        status: res.status,
        body: await res.json(),
      }));
    const right = basic(credentials.email, credentials.apiToken);
    const first = await asking(right);
    expect(first.status).toBe(200);
    for (const wrong of [undefined, basic(credentials.email, "t0ke"), basic("x@example.com", "t0ken")]) {
      const refused = await asking(wrong);
      expect(refused).toEqual({
        status: 401,
        body: { errorMessages: ["Client must be authenticated to access this resource."], errors: {} },
      });
      expect(await asking(right)).toEqual(first);
    }
  });

  it("answer for the acting user the Basic email names, each from its own entry", async () => {
    const { sites, url } = await serve();
    const [alice, bob] = [...sites.root.values("users")].filter((u) => u.emailAddress).slice(1, 3);
    const me = async (email: string) => {
      const res = await fetch(`${url}/rest/api/3/myself`, { headers: { authorization: basic(email, "x") } });
      return ((await res.json()) as { accountId: string }).accountId;
    };
    for (let ask = 0; ask < 2; ask++) {
      expect(await me(alice!.emailAddress!)).toBe(alice!.accountId);
      expect(await me(bob!.emailAddress!)).toBe(bob!.accountId);
    }
  });

  it("tell the observer on a hit what they told it when the answer was computed", async () => {
    const seen: { op: Operation; result: OperationResult; request: ObservedRequest }[] = [];
    const { url } = await serve({ observe: (op, result, request) => seen.push({ op, result, request }) });
    for (const path of ["/rest/api/2/issue/ENG-2?fields=summary", "/s/one/wiki/api/v2/pages/3014661"]) {
      seen.length = 0;
      const bodies = [];
      for (let ask = 0; ask < 3; ask++) bodies.push(await (await fetch(`${url}${path}`)).text());
      expect(new Set(bodies).size).toBe(1);
      expect(seen).toHaveLength(3);
      const [miss, ...hits] = seen;
      expect(miss!.request.input).not.toBeNull();
      expect(miss!.request.answer).not.toBeNull();
      for (const hit of hits) expect(hit).toEqual(miss);
    }
  });
});
