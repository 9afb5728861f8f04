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

/**
 * Renders a Vega-Lite spec to a standalone SVG string. Every mark keeps its description (Vega's
 * aria-label: "reward: 0.0–0.1; episodes: 2; scenario: jira-transition-v1") as an SVG `<title>` too, so
 * pointing at a bar names its family and value in any browser, whatever the number of colours.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return withMarkTitles(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/** `<path aria-label="A" role="graphics-symbol" …/>` → the same path holding `<title>A</title>`. */
export function withMarkTitles(svg: string): string {
  return svg.replace(
    /<path aria-label="([^"]*)" role="graphics-symbol"([^>]*?)\/>/g,
    '<path aria-label="$1" role="graphics-symbol"$2><title>$1</title></path>',
  );
}
