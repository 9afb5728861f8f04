/** What evaluating a JQL query needs: the site, the caller, the site clock, and the problems found so far. */
import type { Site } from "../../site.ts";

export interface JqlContext {
  site: Site;
  /** The caller's accountId (`currentUser()`). */
  accountId: string;
  /** The site clock, for relative dates and date functions. */
  now: number;
  /** Validation messages collected while compiling; non-empty means the query is answered with a 400. */
  errors: string[];
}
