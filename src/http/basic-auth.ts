/**
 * Basic authentication (email + API token), as Atlassian Cloud accepts it: the header's decoding, and
 * the REST facade's check of it (one case of the server's auth decision, see authorize.ts). Without
 * configured credentials any caller is accepted; the email, if given, picks the acting user.
 */
import { authorize, VENDOR_UNAUTHENTICATED } from "./authorize.ts";

export interface Credentials {
  email: string;
  apiToken: string;
}

export type AuthResult = { ok: true; email: string | null } | { ok: false; message: string };

export function checkBasicAuth(header: string | null | undefined, expected: Credentials | null): AuthResult {
  const decision = authorize(header, { credentials: expected });
  return decision.ok ? decision : { ok: false, message: VENDOR_UNAUTHENTICATED };
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The email and API token of an `Authorization: Basic ...` header, or null. */
export function decodeBasic(header: string | null | undefined): Credentials | null {
  const match = header?.match(/^Basic\s+(.+)$/i);
  // Base64 as written (Buffer.from skips what is not base64, so trailing junk would still decode).
  if (!match || !BASE64.test(match[1]!)) return null;
  const text = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon === -1) return null;
  return { email: text.slice(0, colon), apiToken: text.slice(colon + 1) };
}
