import { describe, expect, it } from "vitest";
import { runReference } from "../../agent/scripted/replay.ts";
import { createEpisode } from "../../env/episode.ts";
import { generateTask } from "../tasks.ts";
import { POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

/** Replays the reference with its createPage arguments changed (reading back whatever page it made) and scores it. */
function finish(index: number, change: (args: Record<string, unknown>) => void) {
  const { task } = generateTask(scenario, "eval", index);
  const scratch = createEpisode(scenario, task);
  runReference(scratch);
  const episode = createEpisode(scenario, task);
  for (const c of scratch.calls) {
    if (c.name === "confluence_get_page") continue;
    const args = structuredClone(c.arguments) as Record<string, unknown>;
    if (c.name === "confluence_create_page") change(args);
    const result = episode.step({ name: c.name, arguments: args });
    if (c.name === "confluence_create_page" && result.ok)
      episode.step({ name: "confluence_get_page", arguments: { id: (result.body as { id: string }).id } });
  }
  return episode.score();
}

describe("confluence-page-create-v1", () => {
  it("draws titles and bodies from disjoint split pools that the fixture does not use", () => {
    const fixtureTitles = new Set(
      [...generateTask(scenario, "eval", 0).site.values("pages")].map((p) => p.title),
    );
    for (const kind of ["titles", "bodies"] as const) {
      const evalPool = new Set<string>(POOLS[kind].eval);
      for (const s of POOLS[kind].train) expect(evalPool.has(s)).toBe(false);
    }
    for (const t of [...POOLS.titles.eval, ...POOLS.titles.train]) expect(fixtureTitles.has(t)).toBe(false);
    for (let i = 0; i < 20; i++) {
      const { expected } = generateTask(scenario, "train", i).task;
      expect(POOLS.titles.train).toContain(expected.title);
      expect(scenario.introduces?.(expected)).toEqual([expected.title]);
    }
  });

  it("gives level 2 a paginated space, a twin parent in another space and the space by name", () => {
    const { task, site } = generateTask(scenario, "eval", 9);
    const e = task.expected;
    expect(task.prompt).toContain(`the ${e.spaceName} space`);
    const pages = [...site.values("pages")];
    expect(pages.filter((p) => p.spaceId === e.spaceId).length).toBeGreaterThan(25);
    const twins = pages.filter((p) => p.title === e.parentTitle);
    expect(twins.map((p) => p.spaceId)).toContain(e.spaceId);
    expect(twins.length).toBe(2);
    expect(pages.some((p) => p.title === e.title && p.spaceId !== e.spaceId)).toBe(true);
  });

  it("accepts a nested storage body and an omitted status", () => {
    const result = finish(3, (args) => {
      const body = args.body as { value: string };
      args.body = { storage: { value: body.value } };
      delete args.status;
    });
    expect(result.reward, result.explanation).toBe(1);
    expect(result.passed).toBe(true);
  });

  it("fails the state check and loses reward for a look-alike parent or a changed title", () => {
    const { site, task } = generateTask(scenario, "eval", 1);
    const lookalike = [...site.values("pages")].find(
      (p) =>
        p.spaceId === task.expected.spaceId &&
        p.id !== task.expected.parentId &&
        p.title.split(" ")[0] === task.expected.parentTitle.split(" ")[0],
    )!;
    const cases: ((args: Record<string, unknown>) => void)[] = [
      (args) => {
        args.parentId = lookalike.id;
      },
      (args) => {
        args.title = `${task.expected.title} Page`;
      },
    ];
    for (const change of cases) {
      const result = finish(1, change);
      expect(result.passed, result.explanation).toBe(false);
      expect(result.reward).toBeLessThan(0.8);
    }
  });

  it("accepts the requested text as an atlas_doc_format body (another representation the API accepts)", () => {
    const { task } = generateTask(scenario, "eval", 1);
    const result = finish(1, (args) => {
      const text = { type: "text", text: task.expected.body };
      const doc = { type: "doc", version: 1, content: [{ type: "paragraph", content: [text] }] };
      args.body = { representation: "atlas_doc_format", value: JSON.stringify(doc) };
    });
    expect(result.passed, result.explanation).toBe(true);
    expect(result.reward).toBe(1);
  });
});
