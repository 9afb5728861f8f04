/**
 * ReadCache: the REST facade's answers to GET reads, kept per site while the site is unchanged. An
 * entry is keyed by the request's full URL (path, query and the origin `self` links are built from) and
 * the acting user, and is valid only for the site revision it was computed at: any write (put, remove,
 * counter or clock step, committed transaction) moves the revision and so drops every entry of that
 * site, whatever API version the write came through. A hit answers the very bytes the miss answered,
 * and hands observers the same result, input and context, so traces and rewards cannot tell the two
 * apart. A held read carries its answer ready to send (the body's UTF-8 bytes and the headers object,
 * built once when it was cached and never changed after). Entries go with their site (a WeakMap), and at
 * most `maxPerSite` are held per site.
 */
import type { OperationContext } from "../sandbox/define-operation.ts";
import type { OperationInput, OperationResult } from "../sandbox/execute.ts";
import type { Site } from "../sandbox/site.ts";
import { answerHeaders } from "./answer-headers.ts";

/** One remembered read: what the observer saw and what the route answered, with its encoded body. */
export interface CachedRead {
  input: OperationInput;
  ctx: OperationContext;
  /** The operation's own result (what traces record). */
  result: OperationResult;
  /** What the route answered (the result itself, or a presentation's shape of it). */
  answer: OperationResult;
}

/** A cached read as held: with its answer's body encoded and its response headers (both read-only). */
export interface HeldRead extends CachedRead {
  bytes: Uint8Array<ArrayBuffer>;
  headers: Readonly<Record<string, string>>;
}

export interface ReadCache {
  /** The read cached under `key` for the site's current revision. */
  get(site: Site, key: string): HeldRead | undefined;
  /**
   * Remembers a read computed at `revision` (the site's revision before it ran); does nothing when the
   * site changed since, or when the answer is not a successful JSON body.
   */
  set(site: Site, revision: number, key: string, read: CachedRead): void;
  /** The UTF-8 JSON bytes of a cached answer's body, encoded once when it was cached. */
  bytesOf(answer: OperationResult): Uint8Array<ArrayBuffer> | undefined;
}

interface SiteEntries {
  revision: number;
  reads: Map<string, HeldRead>;
}

const DEFAULT_MAX_PER_SITE = 256;

export function createReadCache(maxPerSite = DEFAULT_MAX_PER_SITE): ReadCache {
  const bySite = new WeakMap<Site, SiteEntries>();
  const encoded = new WeakMap<OperationResult, Uint8Array<ArrayBuffer>>();
  return {
    get(site, key) {
      const entries = bySite.get(site);
      if (!entries || entries.revision !== site.revision) return undefined;
      return entries.reads.get(key);
    },
    set(site, revision, key, read) {
      if (site.revision !== revision || !read.answer.ok || read.answer.body === undefined) return;
      let entries = bySite.get(site);
      if (!entries || entries.revision !== revision) {
        entries = { revision, reads: new Map() };
        bySite.set(site, entries);
      }
      // Oldest first: a full site drops its oldest read to make room.
      if (entries.reads.size >= maxPerSite) entries.reads.delete(entries.reads.keys().next().value!);
      const bytes = Buffer.from(JSON.stringify(read.answer.body));
      encoded.set(read.answer, bytes);
      entries.reads.set(key, { ...read, bytes, headers: answerHeaders(read.answer) });
    },
    bytesOf: (answer) => encoded.get(answer),
  };
}
