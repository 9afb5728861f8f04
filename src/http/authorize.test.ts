import { describe, expect, it } from "vitest";
import { authorize } from "./authorize.ts";
import { sessionApiToken } from "./session-token.ts";

const basic = (email: string, token: string) =>
  `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;

describe("the auth decision", () => {
  it("accepts only the exact token as a bearer token, whatever the case of 'Bearer'", () => {
    const policy = { token: "s3cret" };
    expect(authorize("Bearer s3cret", policy)).toEqual({ ok: true, email: null });
    expect(authorize("bearer  s3cret ", policy).ok).toBe(true);
    expect(authorize("Bearer s3cre", policy)).toMatchObject({ ok: false, reason: "wrong" });
    expect(authorize("Bearer s3cretX", policy)).toMatchObject({ ok: false, reason: "wrong" });
    expect(authorize(undefined, policy)).toMatchObject({ ok: false, reason: "missing" });
    expect(authorize("", policy)).toMatchObject({ ok: false, reason: "missing" });
  });

  it("accepts the token as the API token of Basic auth, with the email naming the acting user", () => {
    const policy = { token: "s3cret" };
    expect(authorize(basic("alice@example.com", "s3cret"), policy)).toEqual({
      ok: true,
      email: "alice@example.com",
    });
    expect(authorize(basic("alice@example.com", "other"), policy)).toMatchObject({ ok: false });
    expect(authorize("Basic czNjcmV0", policy)).toMatchObject({ ok: false, reason: "wrong" }); // no colon
    // Not base64 as written: trailing junk (which a lenient decoder skips) is refused.
    expect(authorize(`${basic("alice@example.com", "s3cret")}!!!`, policy)).toMatchObject({ ok: false });
    expect(authorize("Token s3cret", policy)).toMatchObject({ ok: false, reason: "wrong" });
  });

  it("accepts the --auth credentials exactly, beside the token", () => {
    const credentials = { email: "agent@example.com", apiToken: "abc" };
    expect(authorize(basic("agent@example.com", "abc"), { credentials }).ok).toBe(true);
    expect(authorize(basic("other@example.com", "abc"), { credentials }).ok).toBe(false);
    // Their API token as a bearer token too (what the env-server clients send); any other is refused.
    expect(authorize("Bearer abc", { credentials }).ok).toBe(true);
    expect(authorize("Bearer abd", { credentials }).ok).toBe(false);
    const both = { credentials, token: "s3cret" };
    expect(authorize(basic("agent@example.com", "abc"), both).ok).toBe(true);
    expect(authorize("Bearer s3cret", both).ok).toBe(true);
  });

  it("lets everything through when nothing is configured, still reading the Basic email", () => {
    expect(authorize(undefined, {})).toEqual({ ok: true, email: null });
    expect(authorize(basic("bob@example.com", "any"), { token: null })).toEqual({
      ok: true,
      email: "bob@example.com",
    });
  });

  it("accepts a session's API token only within that session's scope, the server's token anywhere", () => {
    const policy = { token: "s3cret" };
    const a = sessionApiToken("s3cret", "ses-a");
    expect(a).toBe(sessionApiToken("s3cret", "ses-a")); // derived, so the same after a restart
    expect(a).not.toBe(sessionApiToken("s3cret", "ses-b"));
    expect(a).not.toBe(sessionApiToken("other", "ses-a"));
    expect(authorize(`Bearer ${a}`, policy, "ses-a")).toEqual({ ok: true, email: null, session: "ses-a" });
    expect(authorize(basic("agent@example.com", a), policy, "ses-a")).toEqual({
      ok: true,
      email: "agent@example.com",
      session: "ses-a",
    });
    expect(authorize(`Bearer ${a}`, policy, "ses-b")).toMatchObject({ ok: false, reason: "wrong" });
    expect(authorize(`Bearer ${a}`, policy)).toMatchObject({ ok: false, reason: "wrong" });
    expect(authorize(`Bearer ${a}`, policy, null)).toMatchObject({ ok: false, reason: "wrong" });
    // Without a server token there is no session token (--auth alone), and the token is not scoped.
    const credentials = { email: "agent@example.com", apiToken: "abc" };
    expect(authorize(basic("agent@example.com", a), { credentials }, "ses-a").ok).toBe(false);
    expect(authorize("Bearer s3cret", policy, "ses-b")).toEqual({ ok: true, email: null });
  });
});
