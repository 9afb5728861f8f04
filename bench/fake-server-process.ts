/**
 * The fake model server of the rollout benchmark, in its own process so that neither its event loop nor
 * its CPU time mixes with the harness's: it plays the reference agent on the given scenario's eval
 * tasks, waits about `delayMs` per request (a model's think time, varied as a model's is), and reports its own response times when
 * asked over IPC.
 */
import { createRandom } from "../src/sandbox/random.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { findScenario } from "../src/scenarios/index.ts";
import { scriptedBehaviour, startFakeOpenAIServer } from "../test/support/fake-openai-server.ts";

const [scenarioId = "jira-transition-v1", delay = "0"] = process.argv.slice(2);
const scenario = findScenario(scenarioId);
const reference = scriptedBehaviour(
  "reference",
  tasksFor(scenario, "eval").map((task) => ({ scenario, task })),
);
const random = createRandom("fake-server-delay");
const meanDelay = Number(delay);
// Model latency varies: uniform in [0.5, 1.5] × the mean, from a seeded stream.
const server = await startFakeOpenAIServer(async (request) => ({
  ...(await reference(request)),
  delayMs: meanDelay * (0.5 + random.next()),
}));

process.on("message", async (message) => {
  if (message === "stats") process.send!({ serverMs: server.serverMs.splice(0) });
  if (message === "close") {
    await server.close();
    process.disconnect();
  }
});
process.send!({ baseURL: server.baseURL });
