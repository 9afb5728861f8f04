import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

const site = createSite({ seed: 1 });
type Answer = {
  results: { user: { accountId: string; displayName: string } }[];
  totalSize: number;
  size: number;
  _links: { next?: string };
};
const search = (params: Record<string, unknown>) => call(site, "searchUser", params);

describe("searchUser", () => {
  it("finds users by the start of any word of their name, or by accountId", () => {
    const chen = search({ cql: 'user.fullname ~ "chen"' }).body as Answer;
    expect(chen.results.map((r) => r.user.displayName)).toEqual(["Alex Chen", "Alexa Chen"]);
    const id = chen.results[1]!.user.accountId;
    const exact = search({ cql: `user.accountid="${id}"` }).body as Answer;
    expect(exact.results.map((r) => r.user.accountId)).toEqual([id]);
  });

  it("lists everyone for type=user, with start and limit", () => {
    const everyone = search({ cql: "type=user" }).body as Answer;
    const page = search({ cql: "type=user", start: 2, limit: 3 }).body as Answer;
    expect(page.size).toBe(3);
    expect(page.totalSize).toBe(everyone.totalSize);
    expect(page.results).toEqual(everyone.results.slice(2, 5));
  });

  it("links the next page while there is one, and following the links walks every user once", () => {
    const everyone = search({ cql: "type=user" }).body as Answer;
    const walked: Answer["results"] = [];
    let params: Record<string, unknown> | null = { cql: "type=user", limit: 2 };
    while (params) {
      const page = search(params).body as Answer;
      walked.push(...page.results);
      const next = page._links.next;
      params = next ? Object.fromEntries(new URL(next, "http://x").searchParams) : null;
    }
    expect(walked).toEqual(everyone.results);
    expect(everyone._links.next).toBeUndefined();
  });

  it("answers other CQL with v1's 400", () => {
    const bad = search({ cql: 'title = "x"' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/Could not parse cql/),
    });
  });
});
