/**
 * Report kit, HTML escaping: every model-, task- or log-provided string in a generated HTML report
 * (eval's report.html, the training-dynamics report) goes through `esc`. It sits below eval and train
 * and imports nothing of the project.
 */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
