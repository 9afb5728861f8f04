/**
 * Structure probes, generated from each `blocks` expectation and the reference's storage bodies: a
 * look-alike structure must fail (the heading as a bold or plain paragraph, heading and paragraph
 * merged into one paragraph, an unrequested paragraph before or after the required blocks); the same
 * structure must pass in another representation (atlas_doc_format) or with a heading of another level
 * when the prompt gives none.
 */
import type { Script } from "../agent/scripted/replay.ts";
import type { Expectation, ExpectedBlock } from "../reward/expectation.ts";
import { storageToAdf } from "../sandbox/adf/storage-to-adf.ts";
import { isWrite } from "./probe-values.ts";

export interface StructureProbe {
  kind: string;
  detail: string;
  must: "fail" | "pass";
  script: Script;
}

type Body = { representation?: string; value?: string };

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The script with every storage body of a write rewritten by `edit` (null when no body changed). */
function editBodies(script: Script, edit: (value: string) => Body | null): Script | null {
  let changed = false;
  const calls = script.calls.map((c) => {
    const args = c.arguments as { body?: Body };
    if (!isWrite(c) || args.body?.representation !== "storage" || typeof args.body.value !== "string")
      return c;
    const body = edit(args.body.value);
    if (body === null) return c;
    changed = true;
    return { ...c, arguments: { ...args, body } };
  });
  return changed ? { ...script, calls } : null;
}

const storage = (value: string): Body => ({ representation: "storage", value });

/** A storage rewrite that applies only when it changes the value. */
const rewrite = (f: (v: string) => string) => (v: string) => (f(v) === v ? null : storage(f(v)));

export function structureProbes(expectation: Expectation, reference: Script): StructureProbe[] {
  const probes: StructureProbe[] = [];
  const add = (kind: string, detail: string, must: "fail" | "pass", script: Script | null) => {
    if (script) probes.push({ kind, detail, must, script });
  };
  for (const entity of expectation.entities) {
    if (entity.kind === "delete") continue;
    for (const [field, value] of Object.entries(entity.fields)) {
      if (!("blocks" in value)) continue;
      const where = `${entity.ref}.${field}`;
      const blocks: ExpectedBlock[] = value.blocks.blocks;
      const first = blocks[0]!;
      const heading = blocks.find((b): b is Extract<ExpectedBlock, { heading: string }> => "heading" in b);
      const paragraph = blocks.find(
        (b): b is Extract<ExpectedBlock, { paragraph: string }> => "paragraph" in b,
      );
      if (heading) {
        const h = new RegExp(`<h([1-6])>${escapeRe(xml(heading.heading))}</h\\1>`);
        const text = xml(heading.heading);
        add(
          "look-alike structure",
          `${where}: the heading as a bold paragraph`,
          "fail",
          editBodies(
            reference,
            rewrite((v) => v.replace(h, `<p><strong>${text}</strong></p>`)),
          ),
        );
        add(
          "look-alike structure",
          `${where}: the heading as a plain paragraph`,
          "fail",
          editBodies(
            reference,
            rewrite((v) => v.replace(h, `<p>${text}</p>`)),
          ),
        );
        if (paragraph) {
          const both = new RegExp(`${h.source}<p>${escapeRe(xml(paragraph.paragraph))}</p>`);
          add(
            "look-alike structure",
            `${where}: heading and paragraph merged into one paragraph`,
            "fail",
            editBodies(
              reference,
              rewrite((v) => v.replace(both, `<p>${text} ${xml(paragraph.paragraph)}</p>`)),
            ),
          );
        }
        if (heading.level === undefined)
          add(
            "same structure",
            `${where}: the heading at another level`,
            "pass",
            editBodies(
              reference,
              rewrite((v) =>
                v.replace(h, (_m, n) => `<h${n === "3" ? 4 : 3}>${text}</h${n === "3" ? 4 : 3}>`),
              ),
            ),
          );
      }
      // Where the required blocks begin in the written body.
      const begins =
        "heading" in first
          ? new RegExp(`<h[1-6]>${escapeRe(xml(first.heading))}</h[1-6]>`)
          : "paragraph" in first
            ? new RegExp(`<p>${escapeRe(xml(first.paragraph))}</p>`)
            : /<table[\s>]/;
      const insert = (v: string) => {
        const at = v.search(begins);
        return at < 0 ? v : `${v.slice(0, at)}<p>Summary</p>${v.slice(at)}`;
      };
      add(
        "look-alike structure",
        `${where}: an unrequested paragraph before the required blocks`,
        "fail",
        editBodies(reference, rewrite(insert)),
      );
      add(
        "look-alike structure",
        `${where}: an unrequested paragraph after the required blocks`,
        "fail",
        editBodies(reference, (v) => storage(`${v}<p>Thanks.</p>`)),
      );
      add(
        "same structure",
        `${where}: the same blocks in atlas_doc_format`,
        "pass",
        editBodies(reference, (v) => ({
          representation: "atlas_doc_format",
          value: JSON.stringify(storageToAdf(v)),
        })),
      );
    }
  }
  return probes;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
