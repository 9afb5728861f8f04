/**
 * What confluence-page-tree tasks create: a theme (the parent page's title; child titles are
 * "<theme> <section>") and the labels that mark the anchor page at level 3. Eval and train themes are
 * disjoint, so no title a task creates is shared between the splits; none is a fixture title.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_THEMES = [
  "Checkout Revamp",
  "Data Retention Programme",
  "Edge Caching Pilot",
  "Partner API Launch",
  "Warehouse Consolidation",
  "Support Tooling Refresh",
  "Mobile Offline Mode",
  "Billing Platform Split",
  "Accessibility Audit 2026",
  "Observability Upgrade",
  "Vendor Exit Plan",
  "Localisation Rollout",
  "Identity Provider Swap",
  "Cost Reduction Sprint",
] as const;

const TRAIN_THEMES = [
  "Search Relevance Push",
  "Payments Resilience",
  "Onboarding Flow Rework",
  "Queue Migration",
  "Design System Adoption",
  "Incident Tooling",
  "Fraud Signals",
  "Analytics Pipeline Rewrite",
  "Notifications Overhaul",
  "Customer Portal",
  "Release Train Setup",
  "Kubernetes Upgrade",
  "Schema Registry",
  "Feature Flag Cleanup",
  "Tenant Isolation",
  "Backup Modernisation",
  "Partner Onboarding",
  "Docs Site Relaunch",
  "Latency Budget",
  "Security Champions",
  "Hiring Plan 2027",
  "Office Move",
  "Pricing Experiments",
  "Recommendation Engine",
  "Data Catalogue",
  "Chat Support Launch",
  "Carbon Reporting",
  "Test Flakiness Drive",
  "Mobile Release Cadence",
  "Developer Portal",
  "Archive Migration",
  "Access Review",
  "Translation Memory",
  "Disaster Recovery Drill",
  "Platform Roadmap Review",
  "Event Sourcing Trial",
  "Contract Renewal",
  "Sales Enablement Hub",
  "Churn Analysis",
  "API Versioning",
] as const;

/** Child page sections, in a sensible reading order (tasks take them in this order). */
export const SECTIONS = ["Goals", "Scope", "Timeline", "Risks", "Decisions", "Open Questions"] as const;

/** Labels that mark the anchor page of a level-3 task (never fixture labels). */
export const ANCHOR_LABELS = ["program-root", "initiative-home", "planning-hub", "workstream-index"] as const;

export function themes(split: Split): readonly string[] {
  return split === "eval" ? EVAL_THEMES : TRAIN_THEMES;
}

/** Both pools, for the disjointness test. */
export const THEME_POOLS = { eval: EVAL_THEMES, train: TRAIN_THEMES } as const;
