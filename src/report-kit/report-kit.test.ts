import { describe, expect, it } from "vitest";
import { esc } from "./escape-html.ts";
import { renderSvg, VEGA_LITE_SCHEMA } from "./vega-svg.ts";

describe("report kit", () => {
  it("escapes the five HTML-significant characters and stringifies other values", () => {
    expect(esc(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
    );
    expect(esc(3)).toBe("3");
  });

  it("renders a Vega-Lite spec to a standalone SVG with its marks", async () => {
    const svg = await renderSvg({
      $schema: VEGA_LITE_SCHEMA,
      data: { values: [{ x: "a", y: 1 }] },
      mark: "bar",
      encoding: { x: { field: "x", type: "nominal" }, y: { field: "y", type: "quantitative" } },
    });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('aria-roledescription="bar"');
  });
});
