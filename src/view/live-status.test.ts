/**
 * The view's live pages answer with a status that says what happened: 404 for a session the env server
 * does not have (it was a 200 page and a 502 for its calls), 502 when the env server cannot be reached.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadPort } from "../../test/support/dead-port.ts";
import { type RunningGymServer, startGymServer } from "../server/start-gym-server.ts";
import { createViewApp } from "./create-view-app.ts";
import { createLiveClient } from "./live-page.ts";

let env: RunningGymServer;
beforeAll(async () => {
  env = await startGymServer({ port: 0, seed: 1 });
});
afterAll(() => env.close());

const viewOf = (envUrl: string) =>
  createViewApp({
    roots: [],
    playOut: mkdtempSync(join(tmpdir(), "atlas-view-live-")),
    live: createLiveClient(envUrl, null),
  }).app;

describe("the view's live pages", () => {
  it("answer 404 for a session the env server does not have, and 200 for one it has", async () => {
    const app = viewOf(env.url);
    expect((await app.request("/live/ses-nosuch")).status).toBe(404);
    expect((await app.request("/live/ses-nosuch/calls?since=0")).status).toBe(404);
    const opened = await fetch(`${env.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
    });
    const { session_id: sid } = (await opened.json()) as { session_id: string };
    expect((await app.request(`/live/${sid}`)).status).toBe(200);
    expect((await app.request(`/live/${sid}/calls?since=0`)).status).toBe(200);
  });

  it("answer 502 when the env server cannot be reached", async () => {
    const app = viewOf(`http://127.0.0.1:${await deadPort()}`);
    expect((await app.request("/live/ses-any")).status).toBe(502);
    expect((await app.request("/live/ses-any/calls?since=0")).status).toBe(502);
  });
});
