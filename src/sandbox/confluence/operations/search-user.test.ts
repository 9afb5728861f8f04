import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

const site = createSite({ seed: 1 });
type Answer = {
  results: { user: { accountId: string; displayName: string } }[];
  totalSize: number;
  size: number;
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

  it("answers other CQL with v1's 400", () => {
    const bad = search({ cql: 'title = "x"' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/Could not parse cql/),
    });
  });
});
