/**
 * A small XHTML parser for Confluence storage-format bodies. It builds an element tree and reports
 * well-formedness errors the way Confluence does ("Error parsing xhtml: Unexpected close tag ...").
 * Lenient where browsers and Confluence's cleaner are: HTML void elements (`<br>`, `<hr>`, `<img>`)
 * need no closing slash, and a `&` or `<` that starts no entity or tag is kept as text.
 */

export interface XElement {
  kind: "element";
  /** The tag name as written (storage names are case-sensitive, e.g. `ac:structured-macro`). */
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
}

export interface XText {
  kind: "text";
  text: string;
  /** True for CDATA sections, whose whitespace is significant. */
  cdata?: boolean;
}

export type XNode = XElement | XText;

export type XhtmlResult = { ok: true; nodes: XNode[] } | { ok: false; message: string };

const VOID = new Set([
  "br",
  "hr",
  "img",
  "col",
  "area",
  "base",
  "input",
  "link",
  "meta",
  "wbr",
  "source",
  "param",
  "embed",
  "track",
]);

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  mdash: "\u2014",
  ndash: "\u2013",
  hellip: "\u2026",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  bull: "\u2022",
  middot: "\u00b7",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  rarr: "\u2192",
  larr: "\u2190",
};

const OPEN_TAG = /<([A-Za-z_][\w:.-]*)/y;
const ATTRIBUTE = /\s*([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/y;
const TAG_END = /\s*(\/?)>/y;
const CLOSE_TAG = /<\/([A-Za-z_][\w:.-]*)\s*>/y;

class SyntaxProblem extends Error {}

/** Parses a storage body; returns the node list or Confluence's parse error message. */
export function parseXhtml(source: string): XhtmlResult {
  try {
    return { ok: true, nodes: new Parser(source).parse() };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { ok: false, message: error.message };
    throw error;
  }
}

/** Decodes character references; unknown named entities are left as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return safeCodePoint(Number.parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith("#")) return safeCodePoint(Number.parseInt(ref.slice(1), 10)) ?? whole;
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/**
 * Deepest element nesting a storage body may have: the default of Java's Woodstox XML parser (1000), and
 * well within what the recursive walks of a parsed tree (conversion to ADF, visible text) can take.
 */
export const MAX_XHTML_DEPTH = 1000;

class Parser {
  private pos = 0;
  private readonly root: XElement = { kind: "element", name: "#root", attrs: {}, children: [] };
  private readonly stack: XElement[] = [this.root];

  constructor(private readonly src: string) {}

  parse(): XNode[] {
    while (this.pos < this.src.length) {
      if (this.src.startsWith("<!--", this.pos)) this.skipPast("-->", "comment");
      else if (this.src.startsWith("<![CDATA[", this.pos)) this.cdata();
      else if (this.src.startsWith("<?", this.pos)) this.skipPast("?>", "processing instruction");
      else if (this.src.startsWith("<!", this.pos)) this.skipPast(">", "declaration");
      else if (this.src.startsWith("</", this.pos)) this.closeTag();
      else if (/^<[A-Za-z_]/.test(this.src.slice(this.pos, this.pos + 2))) this.openTag();
      else this.text();
    }
    const open = this.stack.length > 1 ? this.stack[this.stack.length - 1] : undefined;
    if (open) this.fail(`Unexpected EOF; was expecting a close tag for element <${open.name}>`);
    return this.root.children;
  }

  private get top(): XElement {
    return this.stack[this.stack.length - 1]!;
  }

  private text(): void {
    let end = this.pos + 1;
    while (end < this.src.length && !(this.src[end] === "<" && /[A-Za-z_/!?]/.test(this.src[end + 1] ?? "")))
      end++;
    this.top.children.push({ kind: "text", text: decodeEntities(this.src.slice(this.pos, end)) });
    this.pos = end;
  }

  private cdata(): void {
    const start = this.pos + "<![CDATA[".length;
    const end = this.src.indexOf("]]>", start);
    if (end === -1) this.fail("Unexpected EOF in CDATA section");
    this.top.children.push({ kind: "text", text: this.src.slice(start, end), cdata: true });
    this.pos = end + 3;
  }

  private skipPast(terminator: string, what: string): void {
    const end = this.src.indexOf(terminator, this.pos + 2);
    if (end === -1) this.fail(`Unexpected EOF in ${what}`);
    this.pos = end + terminator.length;
  }

  private openTag(): void {
    const start = this.pos;
    OPEN_TAG.lastIndex = this.pos;
    const name = OPEN_TAG.exec(this.src)![1]!;
    this.pos = OPEN_TAG.lastIndex;
    const attrs: Record<string, string> = {};
    for (;;) {
      TAG_END.lastIndex = this.pos;
      const end = TAG_END.exec(this.src);
      if (end) {
        this.pos = TAG_END.lastIndex;
        const element: XElement = { kind: "element", name, attrs, children: [] };
        this.top.children.push(element);
        if (end[1] !== "/" && !VOID.has(name.toLowerCase())) {
          if (this.stack.length > MAX_XHTML_DEPTH)
            this.fail(`elements nested deeper than ${MAX_XHTML_DEPTH} levels`, start);
          this.stack.push(element);
        }
        return;
      }
      ATTRIBUTE.lastIndex = this.pos;
      const attr = ATTRIBUTE.exec(this.src);
      if (!attr || ATTRIBUTE.lastIndex === this.pos) {
        if (this.pos >= this.src.length) this.fail(`Unexpected EOF inside start tag <${name}>`, start);
        this.fail(`Unexpected character '${this.src[this.pos]}' in start tag <${name}>`);
      }
      attrs[attr[1]!] = decodeEntities(attr[2] ?? attr[3] ?? attr[4] ?? "");
      this.pos = ATTRIBUTE.lastIndex;
    }
  }

  private closeTag(): void {
    CLOSE_TAG.lastIndex = this.pos;
    const match = CLOSE_TAG.exec(this.src);
    if (!match) this.fail("Malformed close tag");
    const name = match[1]!;
    if (this.top === this.root) {
      if (!VOID.has(name.toLowerCase())) this.fail(`Unexpected close tag </${name}>; no element is open`);
    } else if (this.top.name === name) {
      this.stack.pop();
    } else if (!VOID.has(name.toLowerCase())) {
      this.fail(`Unexpected close tag </${name}>; expected </${this.top.name}>`);
    }
    this.pos = CLOSE_TAG.lastIndex;
  }

  private fail(message: string, at = this.pos): never {
    const before = this.src.slice(0, at).split("\n");
    const row = before.length;
    const col = before[before.length - 1]!.length + 1;
    throw new SyntaxProblem(`Error parsing xhtml: ${message}.\n at [row,col]: [${row},${col}]`);
  }
}
