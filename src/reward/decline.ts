/**
 * The decline rule: whether a final answer declines a task that cannot be done. Deterministic and
 * small, over the answer's text only (no learned judge), after one normalisation (lower case, curly
 * apostrophes straightened, whitespace runs collapsed):
 *
 * 1. it names every missing thing the expectation lists (`refuseNames`), as the prompt gave it, as a
 *    whole phrase (not inside a longer word);
 * 2. it says the task cannot be done: some sentence holds a negation or impossibility word
 *    (`NEGATION`: no, not, cannot, can't, unable, nothing, none, doesn't, ...);
 * 3. it claims no success: no sentence without such a word claims the work done (`SUCCESS`: done,
 *    completed, successfully, "I assigned", "created ENG-3", "priority set", ...).
 *
 * Sentences split at `.`, `!`, `?`, `;` and line breaks. The same rule judges the declined step of a
 * composed workflow (`judgeStepDecline`): over the sentences of the answer that name a missing thing,
 * since the same answer reports the steps that were done.
 */
import { normalizeText } from "./visible-text.ts";

export interface DeclineVerdict {
  ok: boolean;
  /** Why not, in words (empty when ok). */
  problems: string[];
}

/** Words that say something is not so or cannot be done. */
const NEGATION =
  /\b(no|not|never|none|nothing|nobody|neither|nor|cannot|unable|impossible|lacks?|missing|unchanged|without|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|couldn't|shouldn't|haven't|hasn't)\b|n't\b/;

/** Past forms of the actions the tasks ask for. */
const ACTED =
  "(assigned|unassigned|created|updated|moved|linked|added|commented|removed|transitioned|changed|posted|set|edited|deleted|appended|labell?ed)";

/**
 * A claim that the work was done: a success word, or an action in the past said by the agent ("I
 * assigned", "created ENG-3" at the start), of the result ("is now assigned", "has been created") or
 * as a sentence's last word ("priority set").
 */
const SUCCESS = new RegExp(
  `\\b(done|completed?|successful(ly)?|succeeded|all set|finished)\\b|^${ACTED}\\b|\\b(i|i've|i have|we|we've|has been|have been|was|were|is now|are now|now)\\s+${ACTED}\\b|\\b${ACTED}$`,
);

/** The one normalisation of the rule: lower case, straight apostrophes, collapsed whitespace. */
export const normalizeAnswer = (text: string): string =>
  normalizeText(text.replace(/[\u2018\u2019\u02bc]/g, "'")).toLowerCase();

const WORD = /[\p{L}\p{N}_]/u;

/** Whether the normalised answer holds the name as a whole phrase (not inside a longer word). */
export function namesThing(answer: string, name: string): boolean {
  const wanted = normalizeAnswer(name);
  const text = normalizeAnswer(answer);
  if (wanted === "") return false;
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1)) {
    // A hyphen joining another word continues it ("obsolete-v2" does not name "obsolete").
    const end = at + wanted.length;
    const joined = (near: string | undefined, far: string | undefined) =>
      WORD.test(near ?? " ") || (near === "-" && WORD.test(far ?? " "));
    if (!joined(text[at - 1], text[at - 2]) && !joined(text[end], text[end + 1])) return true;
  }
  return false;
}

/** The sentences of a normalised answer. */
const sentences = (answer: string): string[] =>
  normalizeAnswer(answer.replace(/[\r\n]+/g, ". "))
    .split(/[.!?;]+(?:\s|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== "");

/** Whether `answer` declines the task, naming each of `names` (the missing things, as the prompt gave them). */
export function judgeDecline(answer: string | null | undefined, names: readonly string[]): DeclineVerdict {
  const text = answer ?? "";
  const problems: string[] = [];
  const parts = sentences(text);
  const missing = names.filter((n) => !namesThing(text, n));
  if (missing.length > 0)
    problems.push(`the answer does not name ${missing.map((n) => JSON.stringify(n)).join(", ")}`);
  if (!parts.some((s) => NEGATION.test(s))) problems.push("the answer does not say it cannot be done");
  const claim = parts.find((s) => !NEGATION.test(s) && SUCCESS.test(s));
  if (claim !== undefined) problems.push(`the answer claims success ("${claim}")`);
  return { ok: problems.length === 0, problems };
}

/**
 * A workflow's declined step: the decline rule over the sentences that name one of `names` (the whole
 * answer when none does, so the missing name is reported), so that "Created ENG-3." about another step
 * is no success claim about this one.
 */
export function judgeStepDecline(
  answer: string | null | undefined,
  names: readonly string[],
): DeclineVerdict {
  const about = sentences(answer ?? "").filter((s) => names.some((n) => namesThing(s, n)));
  return judgeDecline(about.length > 0 ? about.join(". ") : (answer ?? ""), names);
}
