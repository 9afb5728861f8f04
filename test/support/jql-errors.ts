/**
 * Test helper: the messages of the 400 a JQL search is refused with, checking that the refusal left
 * the site unchanged (fails the test when the search runs or throws anything else).
 */
import { expect } from "vitest";
import { ApiError } from "../../src/sandbox/api-error.ts";
import { AGENT_ACCOUNT_ID } from "../../src/sandbox/fixtures/default-site.ts";
import { searchIssues } from "../../src/sandbox/jira/jql/query.ts";
import type { Site } from "../../src/sandbox/site.ts";

export function jqlErrors(site: Site, jql: string): string[] {
  const before = site.hash();
  try {
    searchIssues(site, jql, AGENT_ACCOUNT_ID);
  } catch (error) {
    expect(site.hash()).toBe(before);
    if (error instanceof ApiError && "errorMessages" in error.body) {
      expect(error.status).toBe(400);
      return error.body.errorMessages;
    }
    throw error;
  }
  throw new Error(`expected ${jql} to fail`);
}
