/**
 * The docs point only at things that exist: every relative link of README.md and docs/ (and the READMEs
 * under src/) resolves to a file of this repository, every `#anchor` to a heading of its page (GitHub's
 * slugs), every repository path named in backticks exists, no page names a place outside the repository,
 * and every "section N" of a numbered page is one of its sections.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "src/reward/README.md",
];

const read = (page: string) => readFileSync(join(ROOT, page), "utf8");

/** The venvs the test command builds (scripts/python-tests.sh): a fresh clone has them only after a run. */
const BUILT_BY_TEST_COMMAND = [
  ...read("scripts/python-tests.sh").matchAll(/venv="\$root\/(python\/\.venv[\w-]*)"/g),
].map((m) => m[1]!);

/** Whether a named path exists, or lies in a venv the test command builds. */
const exists = (p: string) =>
  existsSync(join(ROOT, p)) || BUILT_BY_TEST_COMMAND.some((venv) => p === venv || p.startsWith(`${venv}/`));

/** The numbered sections (`## N. Title`) of a page. */
const numberedSections = (text: string) =>
  new Set([...text.matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));

/** The page without its fenced code blocks (commands there are not links). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Relative link targets of a page: `[text](target)`, external URLs left out. */
function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

/** Repository paths a page names in backticks (`src/x.ts`, `configs/verl/`), placeholders left out. */
function namedPaths(text: string): string[] {
  const top = /^(?:src|docs|python|configs|scripts|test|bench|specs|bin)\//;
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/[.,:;]$/, ""))
    .filter((p) => top.test(p) && !/[<>{}*…|$]|\.\.\./.test(p));
}

describe("links and paths in the docs", () => {
  it.each(PAGES)("%s: every relative link resolves, anchors included", (page) => {
    const problems: string[] = [];
    for (const target of links(read(page))) {
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const file = path ? resolve(ROOT, dirname(page), path) : join(ROOT, page);
      if (relative(ROOT, file).startsWith("..")) problems.push(`${target}: outside the repository`);
      else if (!existsSync(file)) problems.push(`${target}: no such file`);
      else if (anchor && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(anchor))
        problems.push(`${target}: no heading with that anchor`);
    }
    expect(problems).toEqual([]);
  });

  it("knows the venvs the test command builds", () => {
    expect(BUILT_BY_TEST_COMMAND.sort()).toEqual(["python/.venv", "python/.venv-verl"]);
  });

  it.each(PAGES)("%s: every repository path it names exists, and nothing outside the repository", (page) => {
    const text = read(page);
    const missing = namedPaths(text).filter((p) => !exists(p));
    expect(missing).toEqual([]);
    expect(text.match(/\.\.\/shared\b|\/work\/|\bworktree\b/g)).toBeNull();
  });

  it.each(PAGES)('%s: each "section N" it cites is one of its numbered sections', (page) => {
    const text = read(page);
    const numbered = numberedSections(readFileSync(join(ROOT, page), "utf8"));
    if (numbered.size === 0) return;
    const cited = [...prose(text).matchAll(/(?<!\.md )\bsections? (\d+)(?: and (\d+))?/g)].flatMap((m) =>
      [m[1], m[2]].filter(Boolean).map(Number),
    );
    expect(cited.filter((n) => !numbered.has(n))).toEqual([]);
  });

  it.each(PAGES)('%s: each "page.md §N" it cites is a numbered section of that page', (page) => {
    const problems: string[] = [];
    for (const m of read(page).matchAll(/([\w/-]+\.md)\)? (?:§ ?|section )(\d+)/g)) {
      const target = [resolve(ROOT, dirname(page), m[1]!), join(ROOT, m[1]!)].find(existsSync);
      if (!target || !numberedSections(readFileSync(target, "utf8")).has(Number(m[2]))) problems.push(m[0]);
    }
    expect(problems).toEqual([]);
  });

  it.each(PAGES)(
    "%s: verl's --config-path is absolute (Hydra reads a relative one inside verl's package)",
    (page) => {
      const paths = [...read(page).matchAll(/main_ppo --config-path (\S+)/g)].map((m) => m[1]!);
      expect(paths.filter((p) => !/^["']?(\$PWD|\/)/.test(p))).toEqual([]);
    },
  );

  it("computes GitHub's anchors and catches a dead link", () => {
    expect([...anchors("# A `b`: c (d)\n## 1. Two, three\n## 1. Two, three\n")]).toEqual([
      "a-b-c-d",
      "1-two-three",
      "1-two-three-1",
    ]);
    expect(links("see [x](docs/none.md#y) and [z](https://e.com)")).toEqual(["docs/none.md#y"]);
  });
});
