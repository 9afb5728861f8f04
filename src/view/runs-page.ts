/**
 * The view's home page: every run found, one row each, with its provenance (model, provider settings,
 * frozen split hash, atlas-gym version, date, reward mode) and its headline figures with their
 * confidence intervals. A run that could not be read fully is listed with what went wrong.
 */
import type { ScenarioResults } from "../eval/metrics.ts";
import { interval, num } from "../eval/table.ts";
import { esc } from "../report-kit/escape-html.ts";
import { htmlTable, page } from "./layout.ts";
import type { LoadedViewRun } from "./run-store.ts";

/** "0.625 [0.500, 0.750]" for a figure and its interval. */
export const withCi = (value: number | null, ci: [number, number] | null) =>
  `${num(value)}${ci ? ` <span class="muted">${esc(interval(ci[0], ci[1]))}</span>` : ""}`;

/** The split hashes of a run, shortened, one per distinct hash. */
function splitHashes(run: LoadedViewRun): string {
  const hashes = new Set(
    Object.values(run.provenance?.scenarios ?? {}).map((s) => s.eval_split_sha256?.slice(0, 12) ?? "—"),
  );
  return [...hashes].map((h) => `<code>${esc(h)}</code>`).join(" ") || "—";
}

function providerOf(run: LoadedViewRun): string {
  const model = run.config?.model ?? run.rows[0]?.model ?? "";
  const kind = model.includes(":") ? model.slice(0, model.indexOf(":")) : "—";
  const settings = Object.entries(run.provenance?.provider ?? {})
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(" ");
  return `${esc(kind)}${settings ? ` <span class="muted">${esc(settings)}</span>` : ""}`;
}

export const figureCells = (s: ScenarioResults | undefined) =>
  s
    ? [
        withCi(s.mean_reward, s.mean_reward_ci),
        withCi(s.pass_rate, s.pass_rate_ci),
        num(s.pass_hat_k),
        String(s.episodes),
      ]
    : ["—", "—", "—", "0"];

export function runsPage(runs: readonly LoadedViewRun[]): string {
  if (runs.length === 0)
    return page(
      { title: "Runs" },
      `<p>No eval runs found yet. Write one with <code>atlas-gym eval --out out/my-run</code>; it appears here without a restart.</p>`,
    );
  const rows = runs.map((run) => {
    const p = run.provenance;
    const status = run.finished
      ? `<span class="ok">finished</span>`
      : `<span class="warn">${run.rows.length > 0 ? "in progress" : "empty"}</span>`;
    return [
      `<a href="/runs/${esc(run.id)}">${esc(run.id)}</a>`,
      `<code>${esc(run.config?.model ?? run.rows[0]?.model ?? "?")}</code>`,
      providerOf(run),
      splitHashes(run),
      esc(p?.atlas_gym_version ?? "—"),
      esc(p?.started_at?.slice(0, 19).replace("T", " ") ?? "—"),
      esc(run.config?.reward ?? run.results?.reward_mode ?? "—"),
      ...figureCells(run.results?.overall),
      `${status}${run.problems.length ? ` <span class="bad" title="${esc(run.problems.join(" "))}">${run.problems.length} problem${run.problems.length === 1 ? "" : "s"}</span>` : ""}`,
    ];
  });
  const headers = [
    "run",
    "model",
    "provider",
    "split hash",
    "version",
    "started (UTC)",
    "reward mode",
    "mean reward [95% CI]",
    "pass rate [95% CI]",
    "pass^k",
    "episodes",
    "status",
  ];
  return page({ title: "Runs" }, htmlTable(headers, rows, [7, 8, 9, 10]));
}
