/**
 * report.html's provenance block: what results.json records about where the run's numbers come from
 * (model, provider settings, tools, split, n, k, seed, reward mode, turn limit, atlas-gym version and
 * commit, start and end), as a definition list, and each scenario's version and eval split hash as a
 * small table. Every value is escaped.
 */
import { esc } from "../report-kit/escape-html.ts";
import type { Provenance } from "./provenance.ts";

/** The fields shown, in order, as [label, value]; absent values read "—". */
export function provenanceFields(p: Provenance): [string, string][] {
  const provider = Object.entries(p.provider)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
  return [
    ["model", p.model],
    ["provider settings", provider || "provider defaults"],
    ["tools", p.tools],
    ["split", p.split],
    ["tasks per scenario (n)", p.n === null ? "the whole eval split" : String(p.n)],
    ["samples per task (k)", String(p.k)],
    ["seed", String(p.seed)],
    ["reward mode", p.reward_mode],
    ["turn limit", p.max_turns === null ? "each task's own (call budget + 1)" : String(p.max_turns)],
    ["atlas-gym", p.atlas_gym_version],
    ["git commit", p.git_commit ?? "—"],
    ["started", p.started_at],
    ["ended", p.ended_at ?? "— (not finished)"],
  ];
}

export function provenanceHtml(p: Provenance | undefined): string {
  if (!p) return "";
  const dl = provenanceFields(p)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${k === "git commit" ? `<code>${esc(v)}</code>` : esc(v)}</dd>`)
    .join("");
  const scenarios = Object.entries(p.scenarios)
    .map(
      ([id, s]) =>
        `<tr><td>${esc(id)}</td><td>${esc(s.version)}</td><td><code>${esc(s.eval_split_sha256?.slice(0, 12) ?? "—")}</code></td></tr>`,
    )
    .join("");
  return `<details class="provenance" open><summary>Provenance</summary><dl class="provenance">${dl}</dl>
<details><summary>scenario versions and eval split hashes (${Object.keys(p.scenarios).length})</summary>
<table class="scenarios"><tr><th>scenario</th><th>version</th><th>eval split sha256</th></tr>${scenarios}</table></details></details>`;
}
