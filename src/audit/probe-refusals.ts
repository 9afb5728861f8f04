/**
 * Probes of a task that must be refused, generated from its Expectation (`refuse`, `refuseNames`) and
 * reference script: guesses, silence, compliance and answers the decline rule (src/reward/decline.ts)
 * must reject; the same looks with the decline worded differently must pass.
 */
import type { Script } from "../agent/scripted/replay.ts";
import type { Expectation } from "../reward/expectation.ts";
import type { Site } from "../sandbox/site.ts";
import type { ToolCallRequest } from "../tools/tool-call-result.ts";
import { changeAndUndo } from "./probe-writes.ts";

type Add = (kind: string, detail: string, script: Script | null, flag?: boolean) => void;

/**
 * A task that must be refused: declining without looking, looking without answering, complying (a
 * change to what the task names, or to any issue), a change made and undone, an answer that claims
 * success and a decline that does not name what is missing must fail; the same looks with the decline
 * worded differently (naming it in another case) must pass.
 */
export function refusalProbes(
  site: Site,
  x: Expectation,
  reference: Script,
  fail: Add,
  pass: Add,
  tools: readonly string[],
): void {
  fail("guess", "declined without reading anything", { calls: [], final: reference.final });
  fail("no final answer", "looked, then stopped without an answer", { ...reference, final: "" });
  const named = x.validate.find(
    (r): r is { table: "issues" | "pages"; id: string } => r.table === "issues" || r.table === "pages",
  );
  const target = named ?? { table: "issues" as const, id: [...site.values("issues")][0]!.id };
  const [make, undo] = changeAndUndo(site, target.table, target.id);
  const after = (calls: ToolCallRequest[]) => ({ ...reference, calls: [...reference.calls, ...calls] });
  fail(
    "complied",
    `a change to ${target.table} ${target.id} on a task that must be refused`,
    after([make]),
    true,
  );
  fail(
    "made and reverted",
    `a change to ${target.table} ${target.id}, then undone`,
    after([make, undo]),
    true,
  );
  const finals = (must: "fail" | "pass", kind: string, answers: string[]) =>
    answers.forEach((final) => {
      (must === "fail" ? fail : pass)(kind, `the same reads, then ${JSON.stringify(final)}`, {
        ...reference,
        final,
      });
    });
  const names = x.refuseNames ?? [];
  const name = names.join(" and ");
  finals("fail", "claims success", ["Done.", "I assigned it.", `Done: ${name} is set.`]);
  finals("fail", "declines naming the wrong thing", [
    "I cannot do this as asked, so I changed nothing.",
    `There is no ${names.map((n) => `${n}x`).join(" and ")} here, so I did not change anything.`,
  ]);
  finals("pass", "another wording", [
    `I can't do this as asked: ${x.refuse}`,
    `Sorry, that is not possible: ${name.toUpperCase()} does not exist here, so nothing was changed.`,
    `I couldn't find "${name}". I left everything as it was — which one did you mean?`,
    `Unable to proceed:\n${name.toLowerCase()} is missing, no changes made.`,
  ]);
  decisiveSearches(site, x, reference, tools, fail, pass);
}

/**
 * With a CQL search offered, the looks replaced by one search of the space for the missing thing (by
 * title or label) that finds nothing must pass; the same search for something else must fail.
 */
function decisiveSearches(
  site: Site,
  x: Expectation,
  reference: Script,
  tools: readonly string[],
  fail: Add,
  pass: Add,
): void {
  const space = x.validate.find((r) => r.table === "spaces");
  const name = x.refuseNames?.[0];
  if (!tools.includes("confluence_search_cql") || !space || !name) return;
  const key = (site.get("spaces", space.id) as { key: string }).key;
  const search = (n: string): Script => ({
    calls: [
      {
        name: "confluence_search_cql",
        arguments: { cql: `type = page AND space = "${key}" AND (title = "${n}" OR label = "${n}")` },
      },
    ],
    final: reference.final,
  });
  pass("decisive search", `one CQL search of ${key} for "${name}" that finds nothing`, search(name));
  fail("search naming something else", `one CQL search of ${key} for "${name}x" only`, search(`${name}x`));
}
