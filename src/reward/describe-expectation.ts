/** An Expectation in words, one line per requirement, for reports (the HTML drill-down). */
import type { Expectation } from "./expectation.ts";
import { describeExpected } from "./match-value.ts";

export function describeExpectation(x: Expectation): string {
  const lines: string[] = [];
  if (x.refuse !== undefined) lines.push(`decline, changing nothing: ${x.refuse}`);
  for (const e of x.entities) {
    const what =
      e.kind === "create" ? `create ${e.count ?? 1} in ${e.table}` : `${e.kind} ${e.table} ${e.id}`;
    lines.push(`${e.ref}: ${e.label} (${what})`);
    if (e.kind !== "delete")
      for (const [field, value] of Object.entries(e.fields))
        lines.push(`  ${field} ${describeExpected(value)}`);
  }
  lines.push("everything else unchanged; unrequested fields of created records as the API sets them");
  if (x.validate.length > 0)
    lines.push(`validate by reading: ${x.validate.map((r) => `${r.table} ${r.id}`).join(", ")}`);
  lines.push(
    `budget ${x.budget} calls; points: fields ${x.points.fields}, validate ${x.points.validate}, verify ${x.points.verify}`,
  );
  return lines.join("\n");
}
