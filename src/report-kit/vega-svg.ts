/**
 * Report kit, charts: Vega-Lite specs rendered to standalone SVG on the server (no browser, no DOM), to
 * be inlined into self-contained HTML reports. Shared by the eval report (src/eval/charts.ts) and the
 * training-dynamics report (src/train/training-report.ts); it sits below both and imports nothing of
 * the project.
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

/** The `$schema` every chart spec declares. */
export const VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** Renders a Vega-Lite spec to a standalone SVG string. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
