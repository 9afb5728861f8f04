/**
 * Basic authentication (email + API token), as Atlassian Cloud accepts it. Without configured
 * credentials any caller is accepted; the email, if given, picks the acting user.
 */
import { sameSecret } from "./bearer.ts";

export interface Credentials {
  email: string;
  apiToken: string;
}

export type AuthResult = { ok: true; email: string | null } | { ok: false; message: string };

export function checkBasicAuth(header: string | undefined, expected: Credentials | null): AuthResult {
  const decoded = decode(header);
  if (!expected) return { ok: true, email: decoded?.email ?? null };
  if (!decoded) return { ok: false, message: "Client must be authenticated to access this resource." };
  if (decoded.email !== expected.email || !sameSecret(decoded.apiToken, expected.apiToken)) {
    return { ok: false, message: "Client must be authenticated to access this resource." };
  }
  return { ok: true, email: decoded.email };
}

function decode(header: string | undefined): Credentials | null {
  const match = header?.match(/^Basic\s+(.+)$/i);
  if (!match) return null;
  const text = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon === -1) return null;
  return { email: text.slice(0, colon), apiToken: text.slice(colon + 1) };
}
