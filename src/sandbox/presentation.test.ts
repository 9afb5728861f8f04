import { describe, expect, it } from "vitest";
import { AGENT_ACCOUNT_ID, createSite } from "./fixtures/default-site.ts";
import { paragraphDoc } from "./fixtures/text.ts";
import { findOperation } from "./operations.ts";
import { executePresentation, type Presentation } from "./presentation.ts";

const ctx = { baseUrl: "http://sim.test", accountId: AGENT_ACCOUNT_ID };

/** A presentation of `operationId` that passes requests through and answers with `response`. */
function presentationOf(operationId: string, response: Presentation["response"]): Presentation {
  const operation = findOperation(operationId)!;
  return { ...operation, operation, request: (input) => input, response };
}

describe("executePresentation", () => {
  it("undoes a write whose answer cannot be translated, and lets the error through", () => {
    const site = createSite({ seed: 1 });
    const before = site.digest();
    const failing = presentationOf("addComment", () => {
      throw new TypeError("cannot present");
    });
    const input = { params: { issueIdOrKey: "ENG-1" }, body: { body: paragraphDoc("hi") } };
    expect(() => executePresentation(site, failing, input, ctx)).toThrow("cannot present");
    expect(site.digest()).toBe(before);
    // The same write through a presentation that answers is kept.
    const passing = presentationOf("addComment", (result) => result);
    expect(executePresentation(site, passing, input, ctx).answer.status).toBe(201);
    expect(site.digest()).not.toBe(before);
  });
});
