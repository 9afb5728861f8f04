import { describe, expect, it } from "vitest";
import { recordReference, replay, runReference } from "../../agent/scripted/replay.ts";
import { createEpisode } from "../../env/episode.ts";
import { tinyId } from "../../sandbox/confluence/present.ts";
import { DEFAULT_BASE_URL } from "../../sandbox/fixtures/default-site.ts";
import type { ToolCallRequest } from "../../tools/tool-call-result.ts";
import { generateTask } from "../tasks.ts";
import scenario from "./scenario.ts";

const _escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type Args = Record<string, unknown>;

/** Replays the reference on eval task `index` with one call's arguments changed. */
function scoreWith(index: number, tool: string, change: (args: Args) => void) {
  const { task } = generateTask(scenario, "eval", index);
  const script = recordReference(scenario, task);
  const calls = script.calls.map((c): ToolCallRequest => {
    if (c.name !== tool) return c;
    const args = structuredClone(c.arguments) as Args;
    change(args);
    return { name: c.name, arguments: args };
  });
  const episode = createEpisode(scenario, task);
  replay(episode, { ...script, calls });
  return episode.score();
}

/** The page id and space key of the reference's new page on eval task `index`. */
function newPage(index: number) {
  const { task } = generateTask(scenario, "eval", index);
  const episode = createEpisode(scenario, task);
  runReference(episode);
  const created = episode.calls.find((c) => c.name === "confluence_create_page")!;
  return { id: (created.body as { id: string }).id, spaceKey: task.expected.spaceKey };
}

const setUrl = (url: string) => (args: Args) => {
  (args.object as Args).url = url;
};

describe("cross-product-page-link-v1", () => {
  it("adds a same-summary issue and a same-title page elsewhere at level 2", () => {
    const { task, site } = generateTask(scenario, "eval", 10);
    const e = task.expected;
    const issues = [...site.values("issues")].filter((i) => i.summary === e.summary);
    expect(issues.map((i) => i.key)).toContain(e.issueKey);
    expect(issues.length).toBe(2);
    const pages = [...site.values("pages")].filter((p) => p.title === e.parentTitle);
    expect(new Set(pages.map((p) => p.spaceId)).size).toBe(2);
  });

  it("accepts the page's URL without its slug, as a tiny link or as viewpage.action", () => {
    const { id, spaceKey } = newPage(3);
    const wiki = `${DEFAULT_BASE_URL}/wiki`;
    for (const url of [
      `${wiki}/spaces/${spaceKey}/pages/${id}`,
      `${wiki}/x/${tinyId(id)}`,
      `${wiki}/pages/viewpage.action?pageId=${id}`,
    ]) {
      const result = scoreWith(3, "jira_create_remote_link", setUrl(url));
      expect(result.reward, result.explanation).toBe(1);
      expect(result.passed).toBe(true);
    }
  });

  it("fails the state check and loses reward for a link to another page or another host", () => {
    const { task } = generateTask(scenario, "eval", 3);
    const { id, spaceKey } = newPage(3);
    const parent = `${DEFAULT_BASE_URL}/wiki/spaces/${spaceKey}/pages/${task.expected.parentId}`;
    for (const url of [parent, `https://example.com/wiki/spaces/${spaceKey}/pages/${id}`]) {
      const result = scoreWith(3, "jira_create_remote_link", setUrl(url));
      expect(result.passed).toBe(false);
      expect(result.reward).toBeLessThan(1);
    }
  });

  it("fails a draft page or a link titled otherwise, and accepts a page without an explicit status", () => {
    const draft = scoreWith(5, "confluence_create_page", (a) => {
      a.status = "draft";
    });
    expect(draft.passed).toBe(false);
    expect(draft.reward).toBeLessThan(1);
    const title = scoreWith(5, "jira_create_remote_link", (a) => {
      (a.object as Args).title = "Documentation";
    });
    expect(title.passed).toBe(false);
    expect(title.reward).toBeLessThan(1);
    const noStatus = scoreWith(5, "confluence_create_page", (a) => {
      delete a.status;
    });
    expect(noStatus.reward).toBe(1);
    expect(noStatus.passed).toBe(true);
  });

  it("accepts an atlas_doc_format body and the issue by id", () => {
    const { task } = generateTask(scenario, "eval", 1);
    const e = task.expected;
    const text = `This page documents ${e.issueKey}: ${e.summary}.`;
    const doc = {
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text }] }],
    };
    const adf = scoreWith(1, "confluence_create_page", (a) => {
      a.body = { representation: "atlas_doc_format", value: JSON.stringify(doc) };
    });
    expect(adf.reward, adf.explanation).toBe(1);
    expect(adf.passed).toBe(true);
    const byId = scoreWith(1, "jira_create_remote_link", (a) => {
      a.issueIdOrKey = e.issueId;
    });
    expect(byId.reward).toBe(1);
  });
});
