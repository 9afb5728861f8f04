/**
 * The `atlas-gym view` web app (Hono, server-rendered): runs, one run's figures and episodes, one
 * episode, two runs compared, a live env server's sessions, and Play. Bad input — an unknown run or
 * episode, a half-written run, a bad form value — is a page with a clear message and a 4xx status;
 * nothing a request sends can stop the server. With a token, every route needs it (the Authorization
 * header, or `?token=` once, which sets a cookie).
 */
import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { checkBearer, sameSecret } from "../http/bearer.ts";
import { crossOriginWrite, foreignRequest } from "../http/foreign-request.ts";
import { esc } from "../report-kit/escape-html.ts";
import { CLIENT_SCRIPT } from "./client-script.ts";
import { comparePage } from "./compare-page.ts";
import { pre } from "./conversation-html.ts";
import { episodeBody, episodePage } from "./episode-page.ts";
import { parseFilter } from "./episode-rows.ts";
import { CSP, page, problemBox, STYLE } from "./layout.ts";
import {
  type LiveClient,
  liveCallsHtml,
  liveFailureStatus,
  liveListPage,
  liveSessionPage,
} from "./live-page.ts";
import { addPlayRoutes } from "./play-routes.ts";
import { runPage } from "./run-page.ts";
import { createRunStore, type RunStore } from "./run-store.ts";
import { runsPage } from "./runs-page.ts";

export interface ViewAppOptions {
  /** Run directories, or folders of them. */
  roots: readonly string[];
  /** Where Play saves runs (also watched for runs). */
  playOut: string;
  token?: string | null;
  live?: LiveClient;
  /** Clock of the provenance of saved Play runs (default: the system clock). */
  now?: () => Date;
}

const COOKIE = "atlas_view_token";

export function notFoundPage(c: Context, message: string) {
  return c.html(page({ title: "Not found" }, `${problemBox([message])}<p><a href="/">← runs</a></p>`), 404);
}

export function createViewApp(options: ViewAppOptions): { app: Hono; store: RunStore } {
  const store = createRunStore([...options.roots, options.playOut]);
  const app = new Hono();
  app.onError((error, c) => {
    console.error(error);
    return c.html(page({ title: "Error" }, problemBox([`Internal error: ${error.message}`])), 500);
  });
  app.notFound((c) => notFoundPage(c, `Nothing here: ${c.req.path}`));
  app.use("*", async (c, next) => {
    await next();
    c.header("content-security-policy", CSP);
    c.header("x-content-type-options", "nosniff");
    c.header("x-frame-options", "DENY"); // no page may frame the view (clickjacking Play), as the CSP says
  });
  const token = options.token;
  // Without a token (loopback only), what a web page could have sent is refused: DNS rebinding, and
  // cross-site posts to Play (src/http/foreign-request.ts).
  if (!token)
    app.use("*", async (c, next) => {
      const why = foreignRequest(c.req.method, (name) => c.req.header(name));
      if (why === null) return next();
      return c.html(page({ title: "Forbidden" }, problemBox([`Forbidden: ${why}.`])), 403);
    });
  if (token)
    app.use("*", async (c, next) => {
      const query = c.req.query("token");
      if (query !== undefined && sameSecret(query, token)) {
        setCookie(c, COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
        const url = new URL(c.req.url);
        url.searchParams.delete("token");
        // One leading slash: `//host/` would send the browser to another host.
        return c.redirect(`/${url.pathname.replace(/^\/+/, "")}${url.search}`, 303);
      }
      if (checkBearer(c.req.header("authorization"), token) === "ok") return next();
      const cookie = getCookie(c, COOKIE);
      if (cookie && sameSecret(cookie, token)) {
        // SameSite ignores ports: a page on another port of this host sends the cookie too.
        const why = crossOriginWrite(c.req.method, (name) => c.req.header(name));
        if (why === null) return next();
        return c.html(page({ title: "Forbidden" }, problemBox([`Forbidden: ${why}.`])), 403);
      }
      return c.html(
        page(
          { title: "Token required" },
          problemBox([
            "This view needs its token: open the URL it printed (with ?token=…) or send Authorization: Bearer <token>.",
          ]),
        ),
        401,
      );
    });

  app.get("/assets/view.css", (c) => c.body(STYLE, 200, { "content-type": "text/css; charset=utf-8" }));
  app.get("/assets/view.js", (c) =>
    c.body(CLIENT_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );

  app.get("/", (c) => c.html(runsPage(store.list())));

  app.get("/runs/:run", (c) => {
    const run = store.get(c.req.param("run"));
    if (!run) return notFoundPage(c, `No run ${c.req.param("run")} under the folders this view watches.`);
    return c.html(runPage(run, parseFilter(c.req.query()), Number(c.req.query("page") ?? 1)));
  });

  app.get("/runs/:run/episodes/:id", (c) => {
    const run = store.get(c.req.param("run"));
    if (!run) return notFoundPage(c, `No run ${c.req.param("run")} under the folders this view watches.`);
    const row = run.byId.get(c.req.param("id"));
    const record = row && store.record(run, row);
    if (!record)
      return notFoundPage(
        c,
        `Run ${run.id} has no episode ${c.req.param("id")}${row ? " any more (its log changed)" : ""}.`,
      );
    return c.html(episodePage(run, record));
  });

  app.get("/compare", (c) => {
    const runs = store.list();
    const find = (id?: string) => (id ? runs.find((r) => r.id === id) : undefined);
    const a = find(c.req.query("a"));
    const b = find(c.req.query("b"));
    const unknown = [c.req.query("a"), c.req.query("b")].filter((id) => id && !find(id));
    const html = comparePage(runs, a, b, c.req.query("common") === "1");
    return unknown.length ? notFoundPage(c, `No run ${unknown.join(", ")}.`) : c.html(html);
  });

  app.get("/compare/episode", (c) => {
    const id = c.req.query("id") ?? "";
    const sides = (["a", "b"] as const).map((side) => {
      const run = store.get(c.req.query(side) ?? "");
      const row = run?.byId.get(id);
      const record = run && row ? store.record(run, row) : undefined;
      return { run, record };
    });
    if (sides.some((s) => !s.run || !s.record))
      return notFoundPage(
        c,
        `Episode ${id} is not in both runs ${c.req.query("a")} and ${c.req.query("b")}.`,
      );
    const columns = sides
      .map(
        (s, i) =>
          `<section aria-label="run ${i === 0 ? "A" : "B"}"><h2>${i === 0 ? "A" : "B"}: <a href="/runs/${esc(s.run!.id)}">${esc(s.run!.id)}</a></h2>${episodeBody(s.run!, s.record!, "h3")}</section>`,
      )
      .join("");
    return c.html(page({ title: `${id}: A and B` }, `<div class="split">${columns}</div>`));
  });

  app.get("/live", async (c) => c.html(await liveListPage(options.live)));
  app.get("/live/:sid", async (c) => {
    const { status, html } = await liveSessionPage(options.live, c.req.param("sid"));
    return c.html(html, status);
  });
  app.get("/live/:sid/calls", async (c) => {
    if (!options.live)
      return c.json({ error: "This view watches no env server (start it with --env)." }, 404);
    const since = Number(c.req.query("since") ?? 0);
    if (!Number.isInteger(since) || since < 0)
      return c.json({ error: "since must be a non-negative integer" }, 400);
    const answer = await options.live.trace(c.req.param("sid"), since);
    if (!answer.ok) return c.json({ error: answer.error }, liveFailureStatus(answer.status));
    const t = answer.value;
    return c.json({
      html: liveCallsHtml(t.trace),
      next: since + t.trace.length,
      final_html:
        t.final_message === null ? "" : `<div class="label">final answer</div>${pre(t.final_message)}`,
    });
  });

  addPlayRoutes(app, options.playOut, options.now);
  return { app, store };
}
