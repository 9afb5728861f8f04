/**
 * The task families: the fifteen single-family scenarios, in registry order. Workflows compose them
 * (src/scenarios/workflows), so they live apart from the registry that lists both.
 */

import confluenceLabelCleanup from "./confluence-label-cleanup/scenario.ts";
import confluencePageCreate from "./confluence-page-create/scenario.ts";
import confluencePageLabel from "./confluence-page-label/scenario.ts";
import confluencePageTree from "./confluence-page-tree/scenario.ts";
import confluencePageUpdate from "./confluence-page-update/scenario.ts";
import crossProductPageLink from "./cross-product-page-link/scenario.ts";
import crossProductStatusReport from "./cross-product-status-report/scenario.ts";
import type { Scenario } from "./define-scenario.ts";
import jiraAssign from "./jira-assign/scenario.ts";
import jiraBulkTransition from "./jira-bulk-transition/scenario.ts";
import jiraComment from "./jira-comment/scenario.ts";
import jiraCreateIssue from "./jira-create-issue/scenario.ts";
import jiraEditFields from "./jira-edit-fields/scenario.ts";
import jiraLinkIssues from "./jira-link-issues/scenario.ts";
import jiraSubtaskCreate from "./jira-subtask-create/scenario.ts";
import jiraTransition from "./jira-transition/scenario.ts";

export const FAMILIES: readonly Scenario[] = [
  jiraTransition,
  jiraSubtaskCreate,
  confluencePageCreate,
  confluencePageLabel,
  crossProductPageLink,
  confluencePageUpdate,
  confluencePageTree,
  confluenceLabelCleanup,
  crossProductStatusReport,
  jiraAssign,
  jiraComment,
  jiraLinkIssues,
  jiraEditFields,
  jiraBulkTransition,
  jiraCreateIssue,
];
