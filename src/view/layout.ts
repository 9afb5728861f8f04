/**
 * The page shell of `atlas-gym view`: one stylesheet and one small script, both served by the app
 * itself (a Content-Security-Policy forbids everything else, so nothing is fetched from a CDN), a
 * navigation bar, a skip link and visible focus rings for keyboard users, and colours that keep a
 * contrast of at least 4.5:1 on white. Every dynamic string goes through the report kit's `esc`.
 */
import { esc } from "../report-kit/escape-html.ts";

export const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const STYLE = `
:root{--ok:#146c2e;--bad:#a4161a;--warn:#7a4100;--muted:#555;--line:#ccc}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}
main{max-width:1200px;margin:0 auto;padding:8px 16px 40px}
nav{background:#1d3557;padding:8px 16px;display:flex;gap:16px;align-items:center}
nav a{color:#fff;text-decoration:none;font-weight:600}nav a:hover,nav a:focus{text-decoration:underline}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;color:#000;padding:4px;z-index:9}
a{color:#0b4f9c}:focus-visible{outline:3px solid #f4a261;outline-offset:2px}
table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}.muted,.label{color:var(--muted)}
.label{font-size:12px;text-transform:uppercase}
.problem{border-left:4px solid var(--bad);background:#fdecea;padding:6px 10px;margin:8px 0}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f5f5;padding:6px 8px;margin:4px 0;max-height:360px;overflow:auto}
.split{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}
.msg{border-left:3px solid var(--line);padding-left:8px;margin:8px 0}.msg.user{border-color:#4c78a8}
.msg.assistant{border-color:#c25e00}.call{margin:6px 0 6px 12px;border-left:2px dashed #999;padding-left:8px}
.call.failed{border-left-color:var(--bad)}
tr.mismatch td{background:#fdecea}tr.match td:first-child{border-left:4px solid var(--ok)}
tr.mismatch td:first-child{border-left:4px solid var(--bad)}
form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:8px 0}
form.filters label,fieldset label{display:flex;flex-direction:column;font-size:12px}
fieldset{border:1px solid var(--line);margin:6px 0;padding:6px 10px}legend{font-weight:600}
input,select,textarea,button{font:inherit}textarea{width:100%;min-height:6em}
.pager{display:flex;gap:12px;align-items:center}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dd{margin:0}
.badge{display:inline-block;border-radius:3px;padding:0 5px;font-size:12px;border:1px solid currentColor}
`;

export interface PageOptions {
  title: string;
  /** Extra data for the client script, e.g. the live session to poll. */
  data?: Record<string, string>;
}

/** A whole HTML page around `body`. */
export function page({ title, data = {} }: PageOptions, body: string): string {
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${esc(k)}="${esc(v)}"`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · atlas-gym view</title>
<link rel="stylesheet" href="/assets/view.css">
<script src="/assets/view.js" defer></script></head>
<body${attrs}><a class="skip" href="#main">Skip to content</a>
<nav aria-label="main"><a href="/">Runs</a><a href="/compare">Compare</a><a href="/live">Live</a><a href="/play">Play</a></nav>
<main id="main"><h1>${esc(title)}</h1>
${body}
</main></body></html>
`;
}

/** A message box for what could not be read or done (never a crash). */
export const problemBox = (messages: readonly string[]) =>
  messages.map((m) => `<p class="problem" role="alert">${esc(m)}</p>`).join("\n");

/** A table from header names and rows of already-escaped cells; `numeric` marks right-aligned columns. */
export function htmlTable(headers: readonly string[], rows: readonly string[][], numeric: number[] = []) {
  const cell = (v: string, i: number) => `<td${numeric.includes(i) ? ' class="n"' : ""}>${v}</td>`;
  return `<table><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map(cell).join("")}</tr>`)
    .join("")}</tbody></table>`;
}
