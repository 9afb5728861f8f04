/**
 * The one request a workflow task's prompt is: written from its steps' own requests (each family's
 * phrasing, with bound records described, never named by id or key). Level 4 lists the steps in order;
 * level 5 states the whole goal as prose and leaves order and lookups to the agent; level 6 says the
 * same and that a part that cannot be done must be left and declined in the final answer.
 */

import type { Random } from "../../sandbox/random.ts";
import type { Level } from "../define-scenario.ts";
import { fill } from "../prompts.ts";

const LISTED = [
  "Please work through these steps in order:\n{list}",
  "I need a few things done, in this order:\n{list}",
  "Here is today's checklist; do each item in turn:\n{list}",
  "Step by step, please:\n{list}",
  "Could you handle the following, one after another?\n{list}",
  "Run through this sequence for me:\n{list}",
];

const GOAL = [
  "By the end, all of this should be true. {text} Work out the order and any lookups you need yourself.",
  "Here is what I need done today. {text} Find whatever you need along the way.",
  "Could you get this sorted? {text} The order is up to you, as long as all of it ends up done.",
  "I'm handing this over to you. {text} Look up whatever you need first.",
  "Several things need doing. {text} Figure out the details yourself.",
];

const DECLINE = [
  " If some part cannot be done, do everything else and tell me in your final answer which part you could not do and why.",
  " Should any part turn out to be impossible, leave it, finish the rest, and explain in your final answer what could not be done.",
  " Some of this may not be possible; do what can be done and say clearly in your final answer what could not be done.",
];

const sentence = (text: string) => text.trim().replace(/\s+/g, " ");

export function workflowPrompt(random: Random, level: Level, requests: readonly string[]): string {
  if (level === 4)
    return fill(random.pick(LISTED), {
      list: requests.map((r, i) => `${i + 1}. ${sentence(r)}`).join("\n"),
    });
  const text = requests.map(sentence).join(" ");
  return `${fill(random.pick(GOAL), { text })}${level === 6 ? random.pick(DECLINE) : ""}`;
}
