import { describe, expect, it } from "vitest";
import { originOf, pathOf, queryOf } from "./url-parts.ts";

describe("url parts", () => {
  it("slices origin and path (without query or fragment) from absolute URLs", () => {
    expect(originOf("http://127.0.0.1:4010/s/a/rest/api/3/issue/X-1?expand=names")).toBe(
      "http://127.0.0.1:4010",
    );
    expect(pathOf("http://127.0.0.1:4010/s/a/rest/api/3/issue/X-1?expand=names#x")).toBe(
      "/s/a/rest/api/3/issue/X-1",
    );
    expect(pathOf("http://h:1/mcp?session=ses-1")).toBe("/mcp");
    expect(pathOf("http://h:1/v1#top")).toBe("/v1");
    expect(pathOf("http://h:1")).toBe("/");
    expect(originOf("http://h:1")).toBe("http://h:1");
  });

  it("slices the query with its ? (without a fragment)", () => {
    expect(queryOf("http://h:1/s/a/rest/api/3/issue/X-1?expand=names&a=%3F#x")).toBe("?expand=names&a=%3F");
    expect(queryOf("http://h:1/v1?")).toBe("?");
    expect(queryOf("http://h:1/v1")).toBe("");
    expect(queryOf("http://h:1")).toBe("");
  });
});
