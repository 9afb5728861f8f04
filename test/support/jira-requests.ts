/**
 * Test helpers for Jira operation tests: the issue bean as the assertions read it, a request that must be
 * rejected without changing the site, and the shape of a field-level ErrorCollection.
 */
import { expect } from "vitest";
import type { Site } from "../../src/sandbox/site.ts";
import { call } from "./call.ts";

/** Response JSON read in depth by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests read deep response JSON
export type Json = any;
export type IssueBean = { id: string; key: string; fields: Record<string, Json> };

/** The issue as getIssue answers it. */
export const getIssue = (site: Site, key: string) =>
  call(site, "getIssue", { issueIdOrKey: key }).body as IssueBean;

/** Runs a request that must fail with `status` and change nothing; returns its body. */
export function rejected(
  site: Site,
  operationId: string,
  params: Record<string, unknown>,
  body: unknown,
  status = 400,
) {
  const before = site.hash();
  const res = call(site, operationId, params, body);
  expect(res.status).toBe(status);
  expect(site.hash()).toBe(before);
  return res.body;
}

/** A Jira ErrorCollection with field errors only. */
export const fieldErrors = (errors: Record<string, string>) => ({ errorMessages: [], errors });
