/**
 * Sections that confluence-page-update tasks ask to append: a heading and the paragraph under it. The
 * eval and train pools are disjoint (headings and paragraphs), so a trained agent never sees an eval
 * section. No text uses characters that XHTML would need escaped.
 */
import type { Split } from "../define-scenario.ts";

export type Section = readonly [heading: string, paragraph: string];

const EVAL_SECTIONS: readonly Section[] = [
  ["Known limitations", "The export job skips archived projects until the next release."],
  ["Contacts", "Questions go to the platform channel; the owning team answers within a day."],
  ["Review cadence", "This page is reviewed at the start of every quarter by its owner."],
  ["Rollback notes", "Keep the previous build for seven days so that a rollback stays possible."],
  ["Open questions", "We still need to decide who approves changes outside business hours."],
  ["Change log", "Reworded the escalation steps after the March incident review."],
  ["Related dashboards", "The latency and error budget dashboards live in the shared observability folder."],
  ["Ownership", "The reliability guild owns this page and keeps its links up to date."],
  ["Prerequisites", "You need read access to the deployment console before following these steps."],
  ["Glossary additions", "A canary is a small slice of traffic that receives a change first."],
  ["Next steps", "Migrate the remaining services by the end of the second sprint."],
  ["Audit trail", "Every change to this procedure is recorded in the compliance tracker."],
  ["Troubleshooting tips", "If the health check stays red for ten minutes, page the secondary on-call."],
  ["Success criteria", "Error rates stay below half a percent for a full week after the switch."],
];

const TRAIN_SECTIONS: readonly Section[] = [
  ["Background", "The first version of this process was written during the data centre move."],
  ["Scope", "This covers production and staging; development clusters follow their own rules."],
  ["Risks", "A schema change that is not backwards compatible can stall the consumers."],
  ["Timeline", "Planning finishes this month and the rollout starts in the following one."],
  ["Stakeholders", "Product, support and the platform team sign off on every phase."],
  ["FAQ", "Yes, the old endpoint keeps working until the deprecation date."],
  ["Metrics", "We track lead time, failure rate and the time to restore service."],
  ["Dependencies", "The work waits on the new identity provider being available."],
  ["Decision", "We chose the managed queue because it removes an on-call burden."],
  ["Alternatives considered", "Running our own broker was cheaper but needed another specialist."],
  ["Testing", "Every change runs the smoke suite in staging before it reaches production."],
  ["Security notes", "Secrets are read from the vault at start-up and never written to disk."],
  ["Cost", "The new setup costs about the same as the old one at current volumes."],
  ["Training", "New joiners pair with an experienced engineer for their first rotation."],
  ["Communication", "Announcements go out in the engineering newsletter every Friday."],
  ["Support hours", "The support rota covers weekdays from eight in the morning to six in the evening."],
  ["Retention", "Logs are kept for thirty days and metrics for thirteen months."],
  ["Backups", "Snapshots are taken every night and tested once a month."],
  ["Access requests", "Ask your manager to approve access in the identity portal."],
  ["Quality bar", "Pull requests need one approval and a green pipeline before merging."],
  ["Escalation", "If nobody answers within fifteen minutes, call the duty manager."],
  ["Monitoring", "Alerts fire on sustained error rates rather than on single failures."],
  ["Capacity", "The cluster can absorb twice the current peak before it needs new nodes."],
  ["Migration plan", "Services move one team at a time, starting with the least critical ones."],
  ["Lessons learned", "Smaller releases made the last quarter much calmer for everybody."],
  ["Team norms", "We keep meetings short and write decisions down on this space."],
  ["Accessibility", "All new screens are checked with a screen reader before release."],
  ["Localisation", "Strings are translated by the vendor within five working days."],
  ["Performance budget", "Pages must render in under two seconds on a mid-range phone."],
  ["Data sources", "Numbers come from the warehouse and are refreshed every morning."],
  ["Feedback", "Leave comments on this page or message the authors directly."],
  ["Archive policy", "Pages untouched for two years move to the archive space."],
  ["Release checklist", "Tag the build, update the notes and tell support before shipping."],
  ["On-call handover", "The outgoing engineer writes a short summary of open incidents."],
  ["Naming conventions", "Services are named after what they do, not after their team."],
  ["Vendor contacts", "Account managers are listed in the procurement tracker."],
  ["Budget owner", "The engineering director approves spending above the team limit."],
  ["Exit criteria", "The pilot ends when three teams have used it for a full month."],
  ["Reading list", "Start with the architecture overview and then the service catalogue."],
  ["Health checks", "Each service exposes a readiness and a liveness endpoint."],
];

export function sections(split: Split): readonly Section[] {
  return split === "eval" ? EVAL_SECTIONS : TRAIN_SECTIONS;
}

/** Both pools, for the disjointness test. */
export const SECTION_POOLS = { eval: EVAL_SECTIONS, train: TRAIN_SECTIONS } as const;
