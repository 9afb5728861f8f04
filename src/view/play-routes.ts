/**
 * The Play routes: start an episode on a chosen task, call a tool (arguments from the generated form or
 * raw JSON), give the final answer, save the finished episode as a run. Every action redirects back to
 * the episode's page (post/redirect/get); a bad choice or value re-renders the page with the message
 * and a 400, changing nothing.
 */
import { basename } from "node:path";
import type { Hono } from "hono";
import { REWARD_MODES, type RewardMode } from "../reward/score.ts";
import { isToolSetName } from "../tools/aliases/tool-sets.ts";
import { page, problemBox } from "./layout.ts";
import { playSessionPage, playStartPage } from "./play-page.ts";
import { createPlaySessions, type PlaySession } from "./play-session.ts";
import { argumentsFromForm, FormValueError, type JsonSchema } from "./schema-form.ts";

type Form = Record<string, string>;

async function formOf(c: { req: { parseBody(): Promise<Record<string, unknown>> } }): Promise<Form> {
  const body = await c.req.parseBody();
  return Object.fromEntries(
    Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

export function addPlayRoutes(app: Hono, playOut: string, now?: () => Date): void {
  const sessions = createPlaySessions(now);
  const missing = (id: string) =>
    page(
      { title: "Play" },
      `${problemBox([`No play session ${id} (sessions live as long as this view runs).`])}<p><a href="/play">start one</a></p>`,
    );
  const withSession = (id: string): PlaySession | undefined => sessions.get(id);

  app.get("/play", (c) => c.html(playStartPage()));

  app.post("/play", async (c) => {
    const form = await formOf(c);
    // Digits only (as the env server takes a task index): not "", "1e3", "0x10" or past 2^53.
    const index = /^\d+$/.test(form.index ?? "") ? Number(form.index) : Number.NaN;
    const tools = form.tools ?? "default";
    const reward = (form.reward ?? "paper") as RewardMode;
    const problems = [
      !["eval", "train"].includes(form.split ?? "") &&
        `split must be eval or train, got '${form.split ?? ""}'`,
      !Number.isSafeInteger(index) && `task index must be a non-negative integer, got '${form.index ?? ""}'`,
      !isToolSetName(tools) && `unknown tool set '${tools}'`,
      !REWARD_MODES.includes(reward) && `unknown reward mode '${reward}'`,
    ].filter((p): p is string => typeof p === "string");
    if (problems.length) return c.html(playStartPage(problems), 400);
    try {
      const session = sessions.open({
        scenario: form.scenario ?? "",
        split: form.split as "eval" | "train",
        index,
        toolSet: tools as never,
        reward,
      });
      return c.redirect(`/play/${session.id}`, 303);
    } catch (error) {
      return c.html(playStartPage([(error as Error).message]), 400);
    }
  });

  app.get("/play/:id", (c) => {
    const session = withSession(c.req.param("id"));
    return session ? c.html(playSessionPage(session)) : c.html(missing(c.req.param("id")), 404);
  });

  app.post("/play/:id/call", async (c) => {
    const session = withSession(c.req.param("id"));
    if (!session) return c.html(missing(c.req.param("id")), 404);
    const form = await formOf(c);
    const tool = session.episode.functionTools().find((t) => t.function.name === form.tool);
    if (!tool)
      return c.html(playSessionPage(session, [`This task offers no tool '${form.tool ?? ""}'.`]), 400);
    let args: string;
    try {
      args = form.raw?.trim()
        ? form.raw
        : JSON.stringify(argumentsFromForm(tool.function.parameters as JsonSchema, form));
    } catch (error) {
      if (!(error instanceof FormValueError)) throw error;
      return c.html(playSessionPage(session, [error.message]), 400);
    }
    if (session.trace) return c.html(playSessionPage(session, ["This episode has ended."]), 409);
    await session.act({ tool: tool.function.name, arguments: args });
    return c.redirect(`/play/${session.id}${session.trace ? "#score" : "#calls"}`, 303);
  });

  app.post("/play/:id/final", async (c) => {
    const session = withSession(c.req.param("id"));
    if (!session) return c.html(missing(c.req.param("id")), 404);
    if (session.trace) return c.html(playSessionPage(session, ["This episode has ended."]), 409);
    const form = await formOf(c);
    await session.act({ final: form.final ?? "" });
    return c.redirect(`/play/${session.id}#score`, 303);
  });

  app.post("/play/:id/save", async (c) => {
    const session = withSession(c.req.param("id"));
    if (!session) return c.html(missing(c.req.param("id")), 404);
    if (!session.trace) return c.html(playSessionPage(session, ["Give the final answer first."]), 409);
    const dir = await session.save(playOut);
    return c.redirect(`/runs/${encodeURIComponent(basename(dir))}`, 303);
  });
}
