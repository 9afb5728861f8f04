/**
 * getServerInfo: what clients ask first (pycontribs `jira` refuses to start without it, and decides
 * "Cloud or not" from its deploymentType). The site is a Cloud site served at the request's base URL.
 */
import { z } from "zod";
import { jiraTime, SITE_EPOCH_MS } from "../../clock.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";

/** The version a Cloud site reports (Cloud is versionless; it reports 1001.0.0-SNAPSHOT). */
export const CLOUD_VERSION = { version: "1001.0.0-SNAPSHOT", numbers: [1001, 0, 0], build: 100_288 };

export const getServerInfo = defineOperation({
  operationId: "getServerInfo",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/serverInfo",
  summary: "Returns the site's base URL, version and deployment type (Cloud).",
  effect: "read",
  status: 200,
  params: z.object({}),
  handler: (site, _input, ctx) => ({
    baseUrl: ctx.baseUrl,
    displayUrl: ctx.baseUrl,
    displayUrlServicedeskHelpCenter: ctx.baseUrl,
    displayUrlConfluence: `${ctx.baseUrl}/wiki`,
    version: CLOUD_VERSION.version,
    versionNumbers: CLOUD_VERSION.numbers,
    deploymentType: "Cloud",
    buildNumber: CLOUD_VERSION.build,
    buildDate: jiraTime(SITE_EPOCH_MS),
    serverTime: jiraTime(site.now()),
    scmInfo: "5177f96791252404c766ca1ff3f185116ee1a1a1",
    serverTitle: "Jira",
    serverTimeZone: "Etc/UTC",
  }),
});

export const SERVER_INFO_OPERATIONS: readonly Operation[] = [getServerInfo];
