/**
 * Test support: opens pages in headless Chromium (the packaged one, see packaged-chromium.ts) driven by
 * playwright-core. It records console errors, uncaught exceptions, error log entries and every network
 * request of the pages it opens, and can evaluate expressions and take a screenshot.
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { ChromiumInstall } from "./packaged-chromium.ts";

export interface PageProblems {
  consoleErrors: string[];
  exceptions: string[];
  logErrors: string[];
  requests: string[];
}

export interface Browser {
  /** Opens the URL in a new page and waits for its load event. */
  open(url: string): Promise<void>;
  /** Evaluates an expression in the page last opened and returns its (JSON) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** The page last opened, to drive it (click, fill, keyboard) with playwright's own API. */
  page(): Page;
  /** A PNG of the whole page (its first `maxHeight` CSS pixels). */
  screenshot(maxHeight?: number): Promise<Buffer>;
  problems: PageProblems;
  close(): Promise<void>;
}

export async function launchChromium(install: ChromiumInstall): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: install.executablePath,
    args: ["--no-sandbox", "--no-zygote", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"],
    env: { ...process.env, ...install.env } as Record<string, string>,
  });
  const problems: PageProblems = { consoleErrors: [], exceptions: [], logErrors: [], requests: [] };
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const current = () => {
    if (!page) throw new Error("Open a page first");
    return page;
  };

  return {
    problems,
    async open(url) {
      context ??= await browser.newContext();
      page = await context.newPage();
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "assert")
          problems.consoleErrors.push(message.text());
      });
      page.on("pageerror", (error) => problems.exceptions.push(String(error.stack ?? error)));
      // Log entries and every request (file: and data: URLs included) come from the DevTools protocol.
      const cdp = await context.newCDPSession(page);
      cdp.on("Log.entryAdded", ({ entry }) => {
        if (entry.level === "error") problems.logErrors.push(`${entry.text} ${entry.url ?? ""}`.trim());
      });
      cdp.on("Network.requestWillBeSent", ({ request }) => problems.requests.push(request.url));
      await cdp.send("Log.enable");
      await cdp.send("Network.enable");
      await page.goto(url, { waitUntil: "load" });
    },
    page: current,
    async evaluate<T>(expression: string) {
      return (await current().evaluate(expression)) as T;
    },
    async screenshot(maxHeight = 12_000) {
      const size = (await current().evaluate(
        "({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })",
      )) as { width: number; height: number };
      const clip = { x: 0, y: 0, width: size.width, height: Math.min(size.height, maxHeight) };
      return current().screenshot({ type: "png", fullPage: true, clip });
    },
    close: () => browser.close(),
  };
}
