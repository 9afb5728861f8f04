/**
 * Page titles and page bodies that confluence-page-create tasks introduce. The eval and train pools are
 * disjoint from each other and from the fixture's page titles, so a trained agent never sees an eval
 * title or body and a task's title is always free in its space. Bodies avoid characters that XHTML
 * escapes (&, <, >, quotes), so the requested text appears verbatim in a storage body.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_TITLES = [
  "Vendor Evaluation Summary",
  "Migration Lessons Learned",
  "Capacity Review for Spring",
  "Quarterly Access Audit",
  "Load Test Findings",
  "Support Handover Checklist",
  "Data Retention Overview",
  "Dependency Upgrade Plan",
  "Launch Readiness Review",
  "Cost Savings Ideas",
  "Partner Integration Notes",
  "Service Ownership Map",
] as const;

const TRAIN_TITLES = [
  "Sprint Retrospective Notes",
  "Team Working Agreement",
  "Incident Drill Report",
  "API Deprecation Timeline",
  "Hiring Plan Draft",
  "Feature Flag Inventory",
  "Observability Gaps",
  "Security Review Outcomes",
  "Storage Cleanup Plan",
  "Customer Feedback Digest",
  "Release Train Schedule",
  "Design Review Checklist",
  "Latency Budget Proposal",
  "Tooling Wishlist",
  "Mentoring Program Outline",
  "Cloud Region Expansion",
  "Test Strategy Overview",
  "Documentation Style Notes",
  "Error Budget Policy",
  "Knowledge Transfer Plan",
  "Onboarding Buddy Guide",
  "Weekly Metrics Review",
  "Risk Register",
  "Backlog Grooming Rules",
  "Pager Noise Reduction",
  "Accessibility Audit Results",
  "Localization Status",
  "Experiment Results Log",
  "Disaster Recovery Test Plan",
  "Office Move Logistics",
] as const;

const EVAL_BODIES = [
  "This page tracks the open questions from the vendor review. Owners update it every Friday.",
  "The migration finished two days ahead of schedule. Remaining clean-up items are listed below.",
  "Peak traffic is expected to double during the spring campaign. We will add two more nodes in April.",
  "All service accounts were reviewed by the platform team. Three stale accounts were removed.",
  "The checkout service handled four thousand requests per second without errors. Latency stayed under 200 ms.",
  "Support takes over the new billing flow from the first of next month. Escalations still go to the payments team.",
  "Customer records are kept for seven years after the last order. Logs are deleted after ninety days.",
  "We will move every service to the new runtime before the end of the quarter. Each team owns its own upgrade.",
  "Marketing, support and engineering signed off on the launch. The go-live window opens on Tuesday morning.",
  "Turning off idle staging clusters at night saves about a fifth of the cloud bill. The platform team will automate it.",
  "The partner sandbox is available to every team. Request credentials through the integrations channel.",
  "Every production service now has a named owning team. Unowned services are flagged in the weekly report.",
] as const;

const TRAIN_BODIES = [
  "The team agreed to keep stand-ups under fifteen minutes. Action items go into the sprint board.",
  "Core hours are from ten to three in every time zone. Meetings outside them need a reason.",
  "The drill restored the primary database in forty minutes. The runbook needs two corrections.",
  "Version one of the public API will be switched off next spring. Clients get three reminder emails.",
  "We plan to hire two backend engineers this half. Interviews start after the summer break.",
  "There are sixty active feature flags in production. Flags older than six months will be removed.",
  "Background jobs have no tracing today. Adding spans to the scheduler is the first step.",
  "The review found no critical issues in the new login flow. Two medium findings are being fixed.",
  "Old build artefacts use most of the shared storage. A nightly job will delete copies older than a month.",
  "Customers keep asking for a bulk export feature. It is the most requested item this quarter.",
  "A new release train leaves every second Wednesday. Late changes wait for the next train.",
  "Every design review needs a written proposal shared a day in advance. Reviewers leave comments inline.",
  "Each page view should render within one second. The budget is split between backend and frontend.",
  "Engineers asked for faster local builds and better test reports. The platform team will pick two items.",
  "Every new engineer is paired with a mentor for their first quarter. Mentors meet their mentee weekly.",
  "A second cloud region will serve customers in Asia. Traffic moves there gradually over six weeks.",
  "Unit tests cover business rules while end-to-end tests cover the main journeys. Flaky tests are quarantined.",
  "Write short sentences and use the active voice. Every page names its owner at the top.",
  "When the error budget is spent, feature releases pause. Reliability work takes priority until it recovers.",
  "The departing lead will record walkthroughs of the billing system. Questions are collected in a shared doc.",
  "Each newcomer gets a buddy from a neighbouring team. The buddy answers questions during the first month.",
  "The weekly review covers signups, churn and support volume. Numbers come from the analytics dashboard.",
  "Every risk has an owner and a review date. High risks are discussed in the monthly steering meeting.",
  "Tickets without acceptance criteria stay out of the sprint. The product owner grooms the backlog on Mondays.",
  "Half of all night pages last month were duplicates. Alerts will be grouped by service from now on.",
  "The audit found missing labels on six forms. Fixes are planned for the next two sprints.",
  "The app is fully translated into French and Spanish. German is about half done.",
  "Each experiment records its hypothesis before it starts. Results are added when it ends.",
  "The recovery test will fail over the main region on a Saturday. Customers are told a week ahead.",
  "Desks move to the third floor over the long weekend. Pack personal items by Thursday evening.",
] as const;

export function pageTitles(split: Split): readonly string[] {
  return split === "eval" ? EVAL_TITLES : TRAIN_TITLES;
}

export function pageBodies(split: Split): readonly string[] {
  return split === "eval" ? EVAL_BODIES : TRAIN_BODIES;
}

/** The distinctive phrase the reward looks for: the body's first sentence, without its full stop. */
export function phraseOf(body: string): string {
  return body.split(". ")[0]!.replace(/\.$/, "");
}

/** Every pool, for the disjointness test. */
export const POOLS = {
  titles: { eval: EVAL_TITLES, train: TRAIN_TITLES },
  bodies: { eval: EVAL_BODIES, train: TRAIN_BODIES },
} as const;
