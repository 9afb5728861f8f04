import { describe, expect, it } from "vitest";
import { judgeDecline, namesThing } from "./decline.ts";

describe("judgeDecline", () => {
  const names = ["Urgent"];
  it.each([
    "There is no 'Urgent' priority on this site, so I left ENG-4 unchanged.",
    "I can't set the priority to urgent: this site doesn't have it.",
    "Sorry — the URGENT priority does not exist here. Nothing was changed.",
    "I’m unable to do that; no priority called  Urgent  exists (only Highest, High, Medium, Low, Lowest).",
    "Cannot be done as asked.\nThe site has no Urgent priority.",
  ])("passes a decline that names the missing thing: %s", (answer) => {
    expect(judgeDecline(answer, names)).toEqual({ ok: true, problems: [] });
  });

  it.each([
    ["Done.", ["does not name", "does not say it cannot be done", "claims success"]],
    ["I assigned it.", ["does not name", "does not say it cannot be done", "claims success"]],
    ["I set the priority to Urgent.", ["does not say it cannot be done", "claims success"]],
    ["There is no 'Critical' priority, so I changed nothing.", ["does not name"]],
    ["Urgent priority set. There was no problem.", ["claims success"]],
    ["Done! Although there is no Urgent priority, I used Highest.", ["claims success"]],
    ["The priority is Urgent now.", ["does not say it cannot be done"]],
    ["", ["does not name", "does not say it cannot be done"]],
  ])("fails %j", (answer, why) => {
    const verdict = judgeDecline(answer, names);
    expect(verdict.ok).toBe(false);
    for (const w of why) expect(verdict.problems.join("; ")).toContain(w);
    expect(verdict.problems).toHaveLength(why.length);
  });

  it("needs every listed name", () => {
    expect(judgeDecline("There is no page Q3 Report in that space.", ["Q3 Report", "Roadmap"]).ok).toBe(
      false,
    );
    expect(judgeDecline("No page Q3 Report under Roadmap.", ["Q3 Report", "Roadmap"]).ok).toBe(true);
  });
});

describe("namesThing", () => {
  it("matches the whole phrase, case and whitespace normalised", () => {
    expect(namesThing("no one named  jon   SMYTH here", "Jon Smyth")).toBe(true);
    expect(namesThing("no 'Incident' type", "Incident")).toBe(true);
    expect(namesThing("no Incidents at all", "Incident")).toBe(false);
    expect(namesThing("ENG-12 exists", "ENG-1")).toBe(false);
    expect(namesThing("no label obsolete-v2", "obsolete")).toBe(false);
    expect(namesThing("no label 'obsolete' - sorry", "obsolete")).toBe(true);
    expect(namesThing("anything", "  ")).toBe(false);
  });
});
