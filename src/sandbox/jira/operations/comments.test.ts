import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { NOT_A_DOCUMENT } from "../../adf/validate.ts";
import { jiraTime } from "../../clock.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { paragraphDoc } from "../../fixtures/text.ts";
import { findIssue } from "../store.ts";

type CommentBean = { id: string; body: unknown; author: { accountId: string }; created: string };

describe("addComment", () => {
  it("adds an ADF comment authored by the caller, answers 201 and bumps the issue's updated", () => {
    const site = createSite({ seed: 1 });
    const before = findIssue(site, "ENG-3")!.updated;
    const res = call(
      site,
      "addComment",
      { issueIdOrKey: "eng-3" },
      { body: paragraphDoc("Deployed to staging.") },
    );
    expect(res.status).toBe(201);
    const comment = res.body as CommentBean & Record<string, unknown>;
    expect(comment.body).toEqual(paragraphDoc("Deployed to staging."));
    expect(comment.author.accountId).toBe(AGENT_ACCOUNT_ID);
    expect(comment.author).not.toHaveProperty("locale");
    expect(comment.self).toBe(
      `http://sim.test/rest/api/3/issue/${findIssue(site, "ENG-3")!.id}/comment/${comment.id}`,
    );
    const updated = findIssue(site, "ENG-3")!.updated;
    expect(updated).toBeGreaterThan(before);
    expect(comment.created).toBe(jiraTime(updated));
    const issue = call(site, "getIssue", { issueIdOrKey: "ENG-3", fields: "comment" }).body as {
      fields: { comment: { comments: CommentBean[] } };
    };
    expect(issue.fields.comment.comments.at(-1)!.id).toBe(comment.id);
  });

  it("keeps a user mention in the body and rejects a mention without an accountId, changing nothing", () => {
    const site = createSite({ seed: 1 });
    const mention = (attrs: Record<string, unknown>) => ({
      type: "doc",
      version: 1,
      content: [
        {
          type: "paragraph",
          content: [
            { type: "mention", attrs },
            { type: "text", text: " please review." },
          ],
        },
      ],
    });
    const ok = call(
      site,
      "addComment",
      { issueIdOrKey: "ENG-3" },
      { body: mention({ id: AGENT_ACCOUNT_ID }) },
    );
    expect(ok.status).toBe(201);
    expect((ok.body as CommentBean).body).toEqual(mention({ id: AGENT_ACCOUNT_ID }));
    const hash = site.hash();
    const bad = call(site, "addComment", { issueIdOrKey: "ENG-3" }, { body: mention({ text: "@Alex" }) });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/mention needs attrs\.id/);
    expect(site.hash()).toBe(hash);
  });

  it("renders the body as HTML when expand=renderedBody", () => {
    const site = createSite({ seed: 1 });
    const res = call(
      site,
      "addComment",
      { issueIdOrKey: "ENG-3", expand: "renderedBody" },
      { body: paragraphDoc("a < b") },
    );
    expect((res.body as { renderedBody: string }).renderedBody).toBe("<p>a &lt; b</p>");
  });

  it("rejects bodies that are not ADF, empty, or missing, and unknown issues, changing nothing", () => {
    const site = createSite({ seed: 1 });
    const hash = site.hash();
    const cases: [unknown, number, unknown][] = [
      [{ body: "plain text" }, 400, { errorMessages: [], errors: { comment: NOT_A_DOCUMENT } }],
      [
        { body: { type: "doc", version: 1, content: [] } },
        400,
        { errorMessages: [], errors: { comment: "Comment body can not be empty!" } },
      ],
      [
        { body: { type: "doc", version: 1, content: [{ type: "text", text: "x" }] } },
        400,
        {
          errorMessages: [],
          errors: {
            comment: "Invalid ADF: content[0] ('text') is an inline node where a block node is required.",
          },
        },
      ],
      [{}, 400, { errorMessages: [], errors: { body: "'body' is required." } }],
    ];
    for (const [body, status, expected] of cases) {
      const res = call(site, "addComment", { issueIdOrKey: "ENG-1" }, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual(expected);
    }
    const missing = call(site, "addComment", { issueIdOrKey: "ENG-9999" }, { body: paragraphDoc("x") });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
    expect(site.hash()).toBe(hash);
  });
});

describe("getComments and getComment", () => {
  const site = createSite({ seed: 1 });
  const key = "ENG-4";
  for (const text of ["first", "second", "third"])
    call(site, "addComment", { issueIdOrKey: key }, { body: paragraphDoc(text) });
  const texts = (body: unknown) =>
    (body as { comments: { body: { content: { content: { text: string }[] }[] } }[] }).comments.map(
      (c) => c.body.content[0]!.content[0]!.text,
    );

  it("lists comments oldest first with PageOfComments paging", () => {
    const res = call(site, "getComments", { issueIdOrKey: key });
    const page = res.body as { startAt: number; maxResults: number; total: number };
    expect(page.startAt).toBe(0);
    expect(page.maxResults).toBe(100);
    expect(texts(res.body).slice(-3)).toEqual(["first", "second", "third"]);
    const total = page.total;
    const last = call(site, "getComments", { issueIdOrKey: key, startAt: total - 1, maxResults: 1 });
    expect(texts(last.body)).toEqual(["third"]);
  });

  it("orders newest first with orderBy=-created", () => {
    expect(
      texts(call(site, "getComments", { issueIdOrKey: key, orderBy: "-created" }).body).slice(0, 3),
    ).toEqual(["third", "second", "first"]);
  });

  it("gets one comment by id and 404s for a comment of another issue", () => {
    const [comment] = (
      call(site, "getComments", { issueIdOrKey: key, orderBy: "-created" }).body as {
        comments: CommentBean[];
      }
    ).comments;
    expect((call(site, "getComment", { issueIdOrKey: key, id: comment!.id }).body as CommentBean).id).toBe(
      comment!.id,
    );
    const hash = site.hash();
    const other = call(site, "getComment", { issueIdOrKey: "ENG-1", id: comment!.id });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({
      errorMessages: [`Can not find a comment for the id: ${comment!.id}.`],
      errors: {},
    });
    expect(site.hash()).toBe(hash);
  });

  it("rejects an orderBy other than created and unknown issues", () => {
    const hash = site.hash();
    const bad = call(site, "getComments", { issueIdOrKey: key, orderBy: "updated" });
    expect(bad.status).toBe(400);
    expect((bad.body as { errorMessages: string[] }).errorMessages[0]).toMatch(/^Parameter 'orderBy'/);
    expect(call(site, "getComments", { issueIdOrKey: "NOPE-1" }).status).toBe(404);
    expect(site.hash()).toBe(hash);
  });
});

describe("updateComment", () => {
  it("replaces the body, makes the caller its updateAuthor and moves the issue's updated, over v3", () => {
    const site = createSite({ seed: 1 });
    const theirs = [...site.values("comments")].find((c) => c.authorId !== AGENT_ACCOUNT_ID)!;
    const issue = site.get("issues", theirs.issueId)!;
    site.tick(60_000);
    const res = call(
      site,
      "updateComment",
      { issueIdOrKey: issue.key, id: theirs.id, expand: "renderedBody" },
      { body: paragraphDoc("Edited: <done>.") },
    );
    expect(res.status).toBe(200);
    const bean = res.body as CommentBean & {
      updateAuthor: { accountId: string };
      updated: string;
      renderedBody: string;
    };
    expect(bean.id).toBe(theirs.id);
    expect(bean.body).toEqual(paragraphDoc("Edited: <done>."));
    expect(bean.author.accountId).toBe(theirs.authorId);
    expect(bean.updateAuthor.accountId).toBe(AGENT_ACCOUNT_ID);
    expect(bean.created).toBe(jiraTime(theirs.created));
    expect(bean.updated).toBe(jiraTime(site.get("issues", issue.id)!.updated));
    expect(site.get("issues", issue.id)!.updated).toBeGreaterThan(issue.updated);
    expect(bean.renderedBody).toBe("<p>Edited: &lt;done&gt;.</p>");
    const read = call(site, "getComment", { issueIdOrKey: issue.id, id: theirs.id }).body as CommentBean;
    expect(read.body).toEqual(paragraphDoc("Edited: <done>."));
  });

  it("names no separate updateAuthor when the author edits their own comment, after another's edit too", () => {
    const site = createSite({ seed: 1 });
    const key = "ENG-3";
    const added = call(site, "addComment", { issueIdOrKey: key }, { body: paragraphDoc("Mine.") })
      .body as CommentBean;
    const edit = (text: string) =>
      call(site, "updateComment", { issueIdOrKey: key, id: added.id }, { body: paragraphDoc(text) });
    expect(edit("Mine, edited.").status).toBe(200);
    expect(site.get("comments", added.id)).not.toHaveProperty("updateAuthorId");
    const someone = [...site.values("users")].find((u) => u.accountId !== AGENT_ACCOUNT_ID)!.accountId;
    const theirs = { ...site.get("comments", added.id)!, authorId: someone };
    site.put("comments", added.id, theirs);
    expect(edit("Edited by the agent.").status).toBe(200);
    expect(site.get("comments", added.id)!.updateAuthorId).toBe(AGENT_ACCOUNT_ID);
    site.put("comments", added.id, { ...site.get("comments", added.id)!, authorId: AGENT_ACCOUNT_ID });
    expect(edit("Back to the author.").status).toBe(200);
    expect(site.get("comments", added.id)).not.toHaveProperty("updateAuthorId");
  });

  it("refuses an empty or non-ADF body, another issue's comment and an unknown one, changing nothing", () => {
    const site = createSite({ seed: 1 });
    const comment = [...site.values("comments")][0]!;
    const key = site.get("issues", comment.issueId)!.key;
    const other = [...site.values("issues")].find((i) => i.id !== comment.issueId)!.key;
    const before = site.hash();
    const refusals: [Record<string, unknown>, unknown, number, string][] = [
      [{ issueIdOrKey: key, id: comment.id }, { body: "" }, 400, "Comment body can not be empty!"],
      [{ issueIdOrKey: key, id: comment.id }, { body: "plain text" }, 400, NOT_A_DOCUMENT],
      [
        { issueIdOrKey: other, id: comment.id },
        { body: paragraphDoc("x") },
        404,
        `Can not find a comment for the id: ${comment.id}.`,
      ],
      [
        { issueIdOrKey: key, id: "999999" },
        { body: paragraphDoc("x") },
        404,
        "Can not find a comment for the id: 999999.",
      ],
    ];
    for (const [params, body, status, message] of refusals) {
      const res = call(site, "updateComment", params, body);
      expect(res.status).toBe(status);
      expect(JSON.stringify(res.body)).toContain(JSON.stringify(message).slice(1, -1));
    }
    expect(site.hash()).toBe(before);
  });
});
