/**
 * Test support: opens a page in headless Chromium (Debian's `chromium` package) and drives it over the
 * Chrome DevTools protocol on a pipe (--remote-debugging-pipe: NUL-separated JSON on fds 3 and 4), so
 * no WebSocket dependency is needed. It records console errors, uncaught exceptions, error log entries
 * and every network request, and can evaluate expressions and take a screenshot.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/** The Chromium binary, or a message saying how to install it. */
export function findChromium(): { path: string } | { missing: string } {
  for (const name of [process.env.CHROMIUM_PATH, "chromium", "chromium-browser"]) {
    if (!name) continue;
    try {
      const path = execFileSync("sh", ["-c", `command -v "${name}"`], { encoding: "utf8" }).trim();
      if (path) return { path };
    } catch {}
  }
  return {
    missing:
      "Chromium is not installed: install Debian's package with `apt-get update && apt-get install -y chromium` " +
      "(listed in the README's prerequisites), or set CHROMIUM_PATH to a Chromium binary.",
  };
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export interface PageProblems {
  consoleErrors: string[];
  exceptions: string[];
  logErrors: string[];
  requests: string[];
}

export interface Browser {
  /** Opens the URL in a new page and waits for its load event. */
  open(url: string): Promise<void>;
  /** Evaluates an expression in the page and returns its (JSON) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the whole page (its first `maxHeight` CSS pixels). */
  screenshot(maxHeight?: number): Promise<Buffer>;
  problems: PageProblems;
  close(): Promise<void>;
}

export async function launchChromium(path: string): Promise<Browser> {
  const child: ChildProcess = spawn(
    path,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--hide-scrollbars",
      "--remote-debugging-pipe",
      `--user-data-dir=${mkdtempSync(join(tmpdir(), "atlas-chromium-"))}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
  );
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (m: CdpMessage) => void; reject: (e: Error) => void }>();
  const listeners: ((m: CdpMessage) => void)[] = [];
  const problems: PageProblems = { consoleErrors: [], exceptions: [], logErrors: [], requests: [] };
  let buffer = Buffer.alloc(0);
  let nextId = 0;
  let session: string | undefined;

  fromBrowser.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (let end = buffer.indexOf(0); end >= 0; end = buffer.indexOf(0)) {
      const message = JSON.parse(buffer.subarray(0, end).toString("utf8")) as CdpMessage;
      buffer = buffer.subarray(end + 1);
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (waiter) {
        pending.delete(message.id!);
        if (message.error) waiter.reject(new Error(message.error.message));
        else waiter.resolve(message);
      } else for (const listener of [...listeners]) listener(message);
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", () => {
    for (const waiter of pending.values()) waiter.reject(new Error("Chromium exited"));
  });

  const send = (method: string, params: Record<string, unknown> = {}, sessionId = session) =>
    new Promise<CdpMessage>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });
  const nextEvent = (method: string) =>
    new Promise<CdpMessage>((resolve) => {
      const listener = (m: CdpMessage) => {
        if (m.method === method && m.sessionId === session) {
          listeners.splice(listeners.indexOf(listener), 1);
          resolve(m);
        }
      };
      listeners.push(listener);
    });

  listeners.push((m) => {
    const p = m.params ?? {};
    if (m.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert"))
      problems.consoleErrors.push(JSON.stringify(p.args));
    if (m.method === "Runtime.exceptionThrown") problems.exceptions.push(JSON.stringify(p.exceptionDetails));
    if (m.method === "Log.entryAdded") {
      const entry = p.entry as { level: string; text: string; url?: string };
      if (entry.level === "error") problems.logErrors.push(`${entry.text} ${entry.url ?? ""}`.trim());
    }
    if (m.method === "Network.requestWillBeSent") problems.requests.push((p.request as { url: string }).url);
  });

  return {
    problems,
    async open(url) {
      const target = await send("Target.createTarget", { url: "about:blank" }, undefined);
      const attached = await send(
        "Target.attachToTarget",
        { targetId: target.result!.targetId, flatten: true },
        undefined,
      );
      session = attached.result!.sessionId as string;
      for (const domain of ["Runtime", "Log", "Network", "Page"]) await send(`${domain}.enable`);
      const loaded = nextEvent("Page.loadEventFired");
      await send("Page.navigate", { url });
      await loaded;
    },
    async evaluate<T>(expression: string) {
      const reply = await send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
      return (reply.result!.result as { value: T }).value;
    },
    async screenshot(maxHeight = 12_000) {
      const metrics = await send("Page.getLayoutMetrics");
      const size = metrics.result!.cssContentSize as { width: number; height: number };
      const clip = { x: 0, y: 0, width: size.width, height: Math.min(size.height, maxHeight), scale: 1 };
      const reply = await send("Page.captureScreenshot", {
        format: "png",
        captureBeyondViewport: true,
        clip,
      });
      return Buffer.from(reply.result!.data as string, "base64");
    },
    async close() {
      try {
        await send("Browser.close", {}, undefined);
      } catch {
        child.kill("SIGKILL");
      }
      await exited;
    },
  };
}
