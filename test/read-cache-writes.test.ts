/**
 * The REST facade's read cache over real HTTP: a cached answer is byte for byte the computed one, and a
 * write through any API version (Jira v3, v2, /rest/api/latest, Confluence v2, v1) is visible in the
 * very next read through every version, on the default site and on isolated sites.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRestApp } from "../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../src/http/site-registry.ts";
import { type Listening, listen } from "../src/http/start-server.ts";

let cached: Listening;
let computed: Listening;
beforeAll(async () => {
  // One public URL for both, so that their `self` links do not differ by port.
  const publicUrl = "https://acme.atlassian.net";
  cached = await listen(createRestApp({ sites: createSiteRegistry(5), publicUrl }).fetch, 0);
  computed = await listen(
    createRestApp({ sites: createSiteRegistry(5), publicUrl, cacheReads: false }).fetch,
    0,
  );
});
afterAll(async () => {
  await cached.close();
  await computed.close();
});

const JSON_HEADERS = { "content-type": "application/json" };
async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: JSON_HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}
const get = (path: string) => call(cached.url, "GET", path);
const summaries = async (site: string, key: string) =>
  Promise.all(
    ["3", "2", "latest"].map(
      async (v) => (await get(`${site}/rest/api/${v}/issue/${key}?fields=summary`)).json.fields.summary,
    ),
  );

describe("the read cache", () => {
  it("answers the same bytes as computing every answer, first ask and again", async () => {
    const paths = [
      "/rest/api/3/issue/ENG-1",
      "/rest/api/2/issue/ENG-1?fields=summary,status,comment",
      "/rest/api/latest/issue/ENG-2?expand=names,transitions",
      `/rest/api/3/search/jql?jql=${encodeURIComponent("project = ENG ORDER BY key")}&maxResults=5&fields=summary`,
      "/wiki/api/v2/pages/3014661?body-format=storage",
      "/wiki/rest/api/content/3014661?expand=body.storage,version",
      "/s/bytes/rest/api/3/issue/ENG-1",
      "/rest/api/3/issue/NOPE-1",
    ];
    for (const path of paths) {
      const want = await call(computed.url, "GET", path);
      for (let ask = 0; ask < 2; ask++) {
        const got = await get(path);
        expect({ path, status: got.status, text: got.text }).toEqual({
          path,
          status: want.status,
          text: want.text,
        });
      }
    }
  });

  it.each(["", "/s/jira-writes"])(
    "shows a Jira write through any version in the next read through every version (site '%s')",
    async (site) => {
      expect(await summaries(site, "ENG-3")).toEqual(
        Array(3).fill((await get(`${site}/rest/api/3/issue/ENG-3`)).json.fields.summary),
      );
      for (const [version, summary] of [
        ["3", "via v3"],
        ["2", "via v2"],
        ["latest", "via latest"],
      ] as const) {
        const res = await call(cached.url, "PUT", `${site}/rest/api/${version}/issue/ENG-3`, {
          fields: { summary },
        });
        expect(res.status).toBe(204);
        expect(await summaries(site, "ENG-3")).toEqual([summary, summary, summary]);
      }
      const comments = async () =>
        (await get(`${site}/rest/api/3/issue/ENG-3?fields=comment`)).json.fields.comment.total;
      const before = await comments();
      expect(
        (await call(cached.url, "POST", `${site}/rest/api/2/issue/ENG-3/comment`, { body: "seen?" })).status,
      ).toBe(201);
      expect(await comments()).toBe(before + 1);
      const v2 = (await get(`${site}/rest/api/2/issue/ENG-3/comment`)).json;
      expect(v2.comments.at(-1).body).toBe("seen?");
    },
  );

  it("shows a created issue to a read that was answered 404 just before", async () => {
    const created = await call(cached.url, "POST", "/s/create-first/rest/api/3/issue", {
      fields: { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "new" },
    });
    expect(created.status).toBe(201);
    const path = `/s/create-second/rest/api/3/issue/${created.json.key}?fields=summary`;
    expect((await get(path)).status).toBe(404);
    await call(cached.url, "POST", "/s/create-second/rest/api/3/issue", {
      fields: { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "new" },
    });
    const after = await get(path);
    expect([after.status, after.json.fields.summary]).toEqual([200, "new"]);
  });

  it.each(["", "/s/wiki-writes"])(
    "shows a Confluence write through v2 or v1 in the next read through both (site '%s')",
    async (site) => {
      const id = "3014661";
      const read = async () => {
        const v2 = (await get(`${site}/wiki/api/v2/pages/${id}?body-format=storage`)).json;
        const v1 = (await get(`${site}/wiki/rest/api/content/${id}?expand=body.storage,version`)).json;
        return {
          v2: [v2.title, v2.version.number, v2.body.storage.value],
          v1: [v1.title, v1.version.number, v1.body.storage.value],
        };
      };
      const start = await read();
      expect(start.v1).toEqual(start.v2);
      const number = start.v2[1] as number;
      const v1 = await call(cached.url, "PUT", `${site}/wiki/rest/api/content/${id}`, {
        type: "page",
        title: "Retitled in v1",
        version: { number: number + 1 },
        body: { storage: { value: "<p>one</p>", representation: "storage" } },
      });
      expect(v1.status).toBe(200);
      const afterV1 = await read();
      expect(afterV1.v2).toEqual(["Retitled in v1", number + 1, "<p>one</p>"]);
      expect(afterV1.v1).toEqual(afterV1.v2);
      const v2 = await call(cached.url, "PUT", `${site}/wiki/api/v2/pages/${id}`, {
        id,
        status: "current",
        title: "Retitled in v2",
        body: { representation: "storage", value: "<p>two</p>" },
        version: { number: number + 2 },
      });
      expect(v2.status).toBe(200);
      const afterV2 = await read();
      expect(afterV2.v1).toEqual(["Retitled in v2", number + 2, "<p>two</p>"]);
      expect(afterV2.v2).toEqual(afterV2.v1);
    },
  );
});
