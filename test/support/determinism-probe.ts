/**
 * Determinism probe: builds the site for a seed, replays a fixed request sequence through the REST app,
 * and prints digests of the fixture, of every response, and of the final state. Run in fresh processes
 * by test/determinism.test.ts.
 */
import { createHash } from "node:crypto";
import { findPolicy } from "../../src/agent/scripted/policies.ts";
import { createEpisode } from "../../src/env/episode.ts";
import { createRestApp } from "../../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../../src/http/site-registry.ts";
import { createSite } from "../../src/sandbox/fixtures/default-site.ts";
import { createRandom } from "../../src/sandbox/random.ts";
import { SCENARIOS } from "../../src/scenarios/index.ts";
import { generateTask } from "../../src/scenarios/tasks.ts";

/** Digest of each scenario's tasks (prompt, site hash) and of the reference trace's score and explanation. */
export function probeTasks(): string {
  const digest = createHash("sha256");
  for (const scenario of SCENARIOS) {
    for (const [split, index] of [
      ["eval", 0],
      ["eval", 9],
      ["train", 4],
    ] as const) {
      const { task, site } = generateTask(scenario, split, index);
      const episode = createEpisode(scenario, task);
      findPolicy("reference").play(episode, createRandom(1));
      const score = episode.score("gated");
      digest.update(`${task.id}\n${task.prompt}\n${site.hash()}\n${score.reward}\n${score.explanation}\n`);
    }
  }
  return digest.digest("hex");
}

export async function probe(
  seed: number,
): Promise<{ fixture: string; responses: string; state: string; tasks: string }> {
  const fixture = createHash("sha256").update(createSite({ seed }).serialize()).digest("hex");
  const sites = createSiteRegistry(seed);
  const app = createRestApp({ sites });
  const spaceId = [...sites.root.values("spaces")][0]!.id;
  const doc = {
    type: "doc",
    version: 1,
    content: [{ type: "paragraph", content: [{ type: "text", text: "probe" }] }],
  };
  const requests: [string, string, unknown?][] = [
    ["GET", "/rest/api/3/issue/ENG-1"],
    [
      "POST",
      "/rest/api/3/issue",
      {
        fields: { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "Probe", description: doc },
      },
    ],
    ["GET", "/rest/api/3/issue/ENG-1/transitions"],
    ["POST", "/rest/api/3/issue/ENG-1/comment", { body: doc }],
    [
      "GET",
      "/rest/api/3/search/jql?jql=project%20%3D%20ENG%20ORDER%20BY%20key&fields=summary,status&maxResults=5",
    ],
    ["GET", "/wiki/api/v2/spaces?limit=2"],
    [
      "POST",
      "/wiki/api/v2/pages",
      {
        spaceId,
        status: "current",
        title: "Probe page",
        body: { representation: "storage", value: "<p>probe</p>" },
      },
    ],
    ["GET", `/wiki/api/v2/spaces/${spaceId}/pages?limit=50`],
  ];
  const digest = createHash("sha256");
  for (const [method, path, body] of requests) {
    const init =
      body === undefined
        ? { method }
        : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    const res = await app.request(`http://sim.test${path}`, init);
    digest.update(`${res.status} ${await res.text()}\n`);
  }
  return { fixture, responses: digest.digest("hex"), state: sites.root.hash(), tasks: probeTasks() };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  console.log(JSON.stringify(await probe(Number(process.argv[2] ?? 1))));
}
