import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

describe("getIssue", () => {
  const site = createSite({ seed: 1 });

  it("returns the issue bean with all fields by default, conforming to the spec", () => {
    const res = call(site, "getIssue", { issueIdOrKey: "ENG-1" });
    expect(res.status).toBe(200);
    const body = res.body as { key: string; fields: Record<string, unknown> };
    expect(body.key).toBe("ENG-1");
    expect(body.fields).toHaveProperty("summary");
    expect(body.fields).toHaveProperty("subtasks");
  });

  it("finds issues by lower-case key and by numeric id", () => {
    const byKey = call(site, "getIssue", { issueIdOrKey: "eng-2" }).body as { id: string; key: string };
    expect(byKey.key).toBe("ENG-2");
    expect((call(site, "getIssue", { issueIdOrKey: byKey.id }).body as { key: string }).key).toBe("ENG-2");
  });

  it("selects fields and expands names and transitions", () => {
    const res = call(site, "getIssue", {
      issueIdOrKey: "ENG-1",
      fields: "summary,status",
      expand: "names,transitions",
    });
    const body = res.body as { fields: object; names: object; transitions: unknown[] };
    expect(Object.keys(body.fields).sort()).toEqual(["status", "summary"]);
    expect(body.names).toEqual({ summary: "Summary", status: "Status" });
    expect(body.transitions.length).toBeGreaterThan(0);
  });

  it("answers an unknown issue with Jira's 404 body", () => {
    const res = call(site, "getIssue", { issueIdOrKey: "ENG-9999" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
  });

  it("renders rich text as HTML, dates as Jira shows them and the rest as null, with expand=renderedFields", () => {
    const site = createSite({ seed: 1 });
    const mention = [...site.values("users")][1]!;
    const description = {
      type: "doc",
      version: 1,
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Plan" }] },
        {
          type: "bulletList",
          content: [
            {
              type: "listItem",
              content: [
                {
                  type: "paragraph",
                  content: [{ type: "text", text: "a < b", marks: [{ type: "strong" }] }],
                },
              ],
            },
          ],
        },
        { type: "codeBlock", attrs: { language: "sh" }, content: [{ type: "text", text: "make <all>" }] },
        {
          type: "paragraph",
          content: [{ type: "mention", attrs: { id: mention.accountId, text: `@${mention.displayName}` } }],
        },
      ],
    };
    expect(
      call(site, "editIssue", { issueIdOrKey: "ENG-1" }, { fields: { description, duedate: "2026-04-09" } })
        .status,
    ).toBe(204);
    const bean = call(site, "getIssue", {
      issueIdOrKey: "ENG-1",
      fields: ["summary", "description", "duedate", "updated", "comment"],
      expand: ["renderedFields"],
    }).body as { renderedFields: Record<string, unknown>; fields: { comment: { comments: unknown[] } } };
    const rendered = bean.renderedFields;
    expect(Object.keys(rendered).sort()).toEqual(["comment", "description", "duedate", "summary", "updated"]);
    expect(rendered.summary).toBeNull();
    expect(rendered.description).toBe(
      `<h2>Plan</h2><ul><li><p><strong>a &lt; b</strong></p></li></ul><pre><code class="language-sh">make &lt;all&gt;</code></pre><p><a class="user-hover" data-account-id="${mention.accountId}">@${mention.displayName}</a></p>`,
    );
    expect(rendered.duedate).toBe("09/Apr/26");
    expect(rendered.updated).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{2} \d{1,2}:\d{2} (AM|PM)$/);
    const comments = (rendered.comment as { comments: { body: string }[] }).comments;
    expect(comments).toHaveLength(bean.fields.comment.comments.length);
    for (const comment of comments) expect(comment.body).toMatch(/^<(p|h\d|ul|ol|pre|blockquote|div|table)/);
  });
});
