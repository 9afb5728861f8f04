/**
 * Property-based fuzzing of every served endpoint (Jira v3 and v2, Confluence v2 and v1) from Atlassian's
 * OpenAPI documents (test/fuzz/): valid and broken requests go through the real REST app on a fresh fork
 * of the seeded site each, and every answer must hold these properties:
 * - never a 5xx;
 * - the body is valid against the document's response schema for its status;
 * - a refused request (4xx) leaves the site's state hash (Site.digest()) unchanged, and so does any read;
 * - a request whose path names nothing on the site is refused.
 * Seeded: the seed is in the suite's name; `ATLAS_FUZZ_SEED=<n>` replays it (docs/fuzzing.md).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRestApp } from "../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../src/http/site-registry.ts";
import type { Operation } from "../src/sandbox/define-operation.ts";
import { OPERATIONS } from "../src/sandbox/operations.ts";
import type { Endpoint, Presentation } from "../src/sandbox/presentation.ts";
import { PRESENTATIONS } from "../src/sandbox/presentations.ts";
import { fuzzRuns, fuzzSeed } from "./fuzz/fuzz-settings.ts";
import { knownOdd } from "./fuzz/known-odds.ts";
import { type FuzzRequest, requestArbitraries } from "./fuzz/request-arbitrary.ts";
import { siteValues } from "./fuzz/site-values.ts";
import { responseViolations } from "./support/spec-contract.ts";

const seed = fuzzSeed();
const numRuns = fuzzRuns();
console.log(`fuzzing every endpoint: ATLAS_FUZZ_SEED=${seed} ATLAS_FUZZ_RUNS=${numRuns}`);

const sites = createSiteRegistry(1);
const app = createRestApp({ sites });
const values = siteValues(sites.root);
const operationOf = (e: Endpoint): Operation =>
  "operation" in e ? (e as Presentation).operation : (e as Operation);
let nextSite = 0;

/** Sends one request on a fresh fork of the seeded site; the state hash before and after. */
async function send(req: FuzzRequest) {
  const siteId = `fuzz-${nextSite++}`;
  const before = sites.use(siteId, (site) => site.digest());
  const res = await app.request(`http://sim.test/s/${siteId}${req.url}`, {
    method: req.method,
    headers: req.body === undefined ? {} : { "content-type": "application/json" },
    body: req.body,
  });
  const text = await res.text();
  const after = sites.use(siteId, (site) => site.digest());
  sites.delete(siteId);
  return { status: res.status, text, changed: before !== after };
}

/** Why an answer breaks a property, or null when it holds them all. */
function broken(
  endpoint: Endpoint,
  req: FuzzRequest,
  answer: Awaited<ReturnType<typeof send>>,
): string | null {
  const { status, text, changed } = answer;
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    return `answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const violations = body === undefined ? null : responseViolations(endpoint, status, body);
  if (violations && !knownOdd(endpoint, req, violations))
    return `answered ${status} with a body the document does not allow: ${violations}`;
  if (status >= 400 && changed) return `refused with ${status} but changed the site`;
  if (operationOf(endpoint).effect === "read" && changed) return `a read (${status}) changed the site`;
  if (req.mustFail && status < 400) return `named nothing on the site but answered ${status}`;
  return null;
}

const ENDPOINTS: Endpoint[] = [...OPERATIONS, ...PRESENTATIONS];

/** Endpoints where a valid request was answered 2xx: the generated data reaches the operation. */
const reached = new Set<string>();

describe(`fuzzing every served endpoint from its OpenAPI document (ATLAS_FUZZ_SEED=${seed})`, () => {
  it.each(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e] as const))("%s", async (name, endpoint) => {
    const { valid, invalid } = requestArbitraries(endpoint, values, Boolean(operationOf(endpoint).body));
    await fc.assert(
      fc.asyncProperty(fc.oneof(valid, invalid), async (req) => {
        const answer = await send(req);
        if (req.kind === "valid" && answer.status < 300) reached.add(name);
        const problem = broken(endpoint, req, answer);
        if (problem) throw new Error(`${req.kind}: ${req.method} ${req.url} ${req.body ?? ""}\n${problem}`);
      }),
      { seed, numRuns },
    );
  });

  it("valid requests get past the boundary on most endpoints (the data is not all refused)", () => {
    const missed = ENDPOINTS.map((e) => `${e.method} ${e.path}`).filter((name) => !reached.has(name));
    console.log(
      `valid requests answered 2xx on ${reached.size} of ${ENDPOINTS.length} endpoints; not on: ${missed.join(", ")}`,
    );
    expect(reached.size).toBeGreaterThanOrEqual(Math.floor(ENDPOINTS.length * 0.8));
  });
});
