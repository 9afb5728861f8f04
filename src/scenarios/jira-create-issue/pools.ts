/**
 * What jira-create-issue tasks introduce: a summary with a two-sentence description. Disjoint between the
 * eval and train splits and from the fixture's summaries.
 */
import type { Split } from "../define-scenario.ts";

/** [summary, first paragraph, second paragraph]. */
type Idea = readonly [string, string, string];

const EVAL_IDEAS: readonly Idea[] = [
  [
    "Export invoices as CSV",
    "Finance needs a monthly CSV export of all invoices.",
    "Include the tax breakdown per line.",
  ],
  [
    "Session expires during checkout",
    "Users are logged out while paying.",
    "It happens after about ten minutes idle.",
  ],
  [
    "Add audit log for role changes",
    "Admins cannot see who changed a role.",
    "Store the actor, the time and the old value.",
  ],
  [
    "Slow query on the orders report",
    "The orders report takes over 30 seconds.",
    "The query scans the whole events table.",
  ],
  [
    "Support SSO with Okta",
    "Enterprise customers ask for Okta sign-in.",
    "Start with SAML; OIDC can follow.",
  ],
  [
    "Images missing in order emails",
    "Product images do not load in confirmation emails.",
    "The CDN links expire too early.",
  ],
  [
    "Rate limit password resets",
    "Password reset requests are not limited.",
    "Allow five per hour per account.",
  ],
  [
    "Show delivery estimate on cart",
    "Shoppers want to see when the order arrives.",
    "Use the carrier's estimate API.",
  ],
] as const;

const TRAIN_IDEAS: readonly Idea[] = [
  [
    "Add CSV import for contacts",
    "Sales wants to import contacts from CSV.",
    "Deduplicate by email address.",
  ],
  [
    "Crash when rotating the tablet",
    "The app crashes on rotation in the cart.",
    "Seen on Android tablets only.",
  ],
  [
    "Nightly job misses time zone",
    "The nightly report runs at the wrong hour.",
    "It ignores daylight saving time.",
  ],
  ["Add retry to webhook delivery", "Failed webhooks are never retried.", "Retry three times with backoff."],
  ["Typo on the pricing page", "The pricing page says 'anual'.", "Fix it in all languages."],
  ["Cache product thumbnails", "Thumbnails are rendered on every request.", "Cache them for a day."],
  [
    "Allow editing saved addresses",
    "Users cannot edit a saved address.",
    "They have to delete and re-add it.",
  ],
  [
    "Track search queries without results",
    "We do not know what people fail to find.",
    "Log queries that return nothing.",
  ],
  ["Timeout on large file uploads", "Uploads over 50 MB time out.", "Use multipart uploads."],
  [
    "Add a changelog page",
    "Customers ask what changed in each release.",
    "Generate it from the release notes.",
  ],
  [
    "Dark mode icons are invisible",
    "Some icons are black on black in dark mode.",
    "Use the themed icon set.",
  ],
  [
    "Queue emails during outages",
    "Emails are lost when the mail provider is down.",
    "Queue and resend them.",
  ],
] as const;

export const ideas = (split: Split): readonly Idea[] => (split === "eval" ? EVAL_IDEAS : TRAIN_IDEAS);

/** Both pools, for the disjointness test. */
export const IDEA_POOLS = { eval: EVAL_IDEAS, train: TRAIN_IDEAS } as const;
