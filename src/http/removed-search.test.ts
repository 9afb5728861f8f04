/**
 * The old issue search, removed from Atlassian Cloud (CHANGE-2046): GET and POST /rest/api/2|3/search
 * answer 410 with Cloud's own body pointing to /search/jql, on the default site and an isolated one;
 * its successor and other unknown paths are unaffected.
 */
import { describe, expect, it } from "vitest";
import { createRestApp } from "./create-rest-app.ts";
import { createSiteRegistry } from "./site-registry.ts";

const app = createRestApp({ sites: createSiteRegistry(3) });
const send = async (method: string, path: string) => {
  const response = await app.fetch(
    new Request(`http://jira.test${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: method === "POST" ? JSON.stringify({ jql: "project = ENG" }) : undefined,
    }),
  );
  return { status: response.status, body: await response.json() };
};

describe("the removed issue search", () => {
  it("answers 410 with Cloud's migration message", async () => {
    for (const path of [
      "/rest/api/3/search?jql=project%3DENG",
      "/rest/api/2/search",
      "/s/mine/rest/api/3/search",
    ])
      for (const method of ["GET", "POST"])
        expect(await send(method, path)).toEqual({
          status: 410,
          body: {
            errorMessages: [
              "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046",
            ],
            errors: {},
          },
        });
    expect((await send("GET", "/rest/api/3/search/jql?jql=project%3DENG")).status).toBe(200);
    expect((await send("GET", "/rest/api/3/searchx")).status).toBe(404);
  });
});
