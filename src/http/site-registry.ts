/**
 * SiteRegistry: the sites a server holds: the default site at the root, isolated ad-hoc sites under
 * `/s/<id>/...`, each built from the same seed on first use (by forking a pristine template, far cheaper
 * than rebuilding the fixture), and bound sites (an env-server session's episode site, registered and
 * released by the session store). Ad-hoc sites are bounded like sessions: one idle past the TTL with no
 * request running on it is evicted (the id then starts a fresh site), and when `maxSites` are held and
 * none is idle, a new id is refused with SiteCapacityError (HTTP 429 with Retry-After): a site in use is
 * never dropped to make room.
 */
import { createSite } from "../sandbox/fixtures/default-site.ts";
import type { Site } from "../sandbox/site.ts";

export interface SiteRegistryOptions {
  /** Idle time (ms) after which an ad-hoc site is evicted. Default 1 hour. */
  ttlMs?: number;
  /** Most ad-hoc sites held at once. Default 10,000. */
  maxSites?: number;
  /** Milliseconds clock. Default Date.now. */
  clock?: () => number;
}

export interface SiteRegistry {
  /** The default site (served at the root). */
  readonly root: Site;
  readonly ttlMs: number;
  readonly maxSites: number;
  /** Ad-hoc sites held now (bound sites not counted). */
  readonly size: number;
  /**
   * Runs `fn` on the site with this id (a bound site, or an ad-hoc one created on first use), keeping an
   * ad-hoc site from eviction while `fn` runs. Throws SiteCapacityError when a new ad-hoc site would
   * exceed `maxSites`.
   */
  use<T>(id: string, fn: (site: Site) => T): T;
  /** Registers an existing site under an id (the env server binds episode sites this way). */
  set(id: string, site: Site): void;
  /** Releases a bound site or forgets an ad-hoc one; false if there was none. */
  delete(id: string): boolean;
  /** Whether a bound or ad-hoc site has this id. */
  has(id: string): boolean;
  /** Whether the id names a bound site (one the registry must not delete on a client's request). */
  isBound(id: string): boolean;
  /** Evicts every ad-hoc site idle past the TTL with no request running; returns the ids evicted. */
  reap(): string[];
  /** Seconds until the longest-idle ad-hoc site becomes evictable (at least 1): a 429's Retry-After. */
  retryAfterSeconds(): number;
}

/** Thrown when a new ad-hoc site would exceed the registry's maximum. */
export class SiteCapacityError extends Error {
  override name = "SiteCapacityError";
  constructor(
    readonly maxSites: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Too many isolated sites (the limit is ${maxSites}, set by serve --max-sites): delete finished ones with DELETE /s/{id}, or retry after ${retryAfterSeconds} s when idle ones expire.`,
    );
  }
}

interface AdHoc {
  site: Site;
  lastUsed: number;
  pending: number;
}

const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_MAX_SITES = 10_000;

export function createSiteRegistry(seed: number, options: SiteRegistryOptions = {}): SiteRegistry {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const maxSites = options.maxSites ?? DEFAULT_MAX_SITES;
  if (!(ttlMs > 0)) throw new RangeError(`Site TTL must be positive, got ${ttlMs}`);
  if (!Number.isInteger(maxSites) || maxSites < 1)
    throw new RangeError(`maxSites must be a positive integer, got ${maxSites}`);
  const clock = options.clock ?? Date.now;
  const template = createSite({ seed });
  const root = template.fork();
  const bound = new Map<string, Site>();
  // Insertion order is refreshed on every use, so the first entries are the longest idle.
  const adHoc = new Map<string, AdHoc>();

  const registry: SiteRegistry = {
    root,
    ttlMs,
    maxSites,
    get size() {
      return adHoc.size;
    },
    use<T>(id: string, fn: (site: Site) => T): T {
      const site = bound.get(id);
      if (site) return fn(site);
      let entry = adHoc.get(id);
      if (entry) adHoc.delete(id);
      else {
        if (adHoc.size >= maxSites) registry.reap();
        if (adHoc.size >= maxSites) throw new SiteCapacityError(maxSites, registry.retryAfterSeconds());
        entry = { site: template.fork(), lastUsed: clock(), pending: 0 };
      }
      adHoc.set(id, entry);
      const held = entry;
      held.pending++;
      held.lastUsed = clock();
      const done = () => {
        held.pending--;
        held.lastUsed = clock();
      };
      try {
        const result = fn(held.site);
        if (result instanceof Promise) return result.finally(done) as T;
        done();
        return result;
      } catch (error) {
        done();
        throw error;
      }
    },
    set: (id, site) => void bound.set(id, site),
    delete: (id) => bound.delete(id) || adHoc.delete(id),
    has: (id) => bound.has(id) || adHoc.has(id),
    isBound: (id) => bound.has(id),
    reap() {
      const now = clock();
      const evicted: string[] = [];
      for (const [id, entry] of adHoc)
        if (entry.pending === 0 && now - entry.lastUsed >= ttlMs) evicted.push(id);
      for (const id of evicted) adHoc.delete(id);
      return evicted;
    },
    retryAfterSeconds() {
      const now = clock();
      let soonest = Number.POSITIVE_INFINITY;
      for (const entry of adHoc.values()) soonest = Math.min(soonest, entry.lastUsed + ttlMs - now);
      return Number.isFinite(soonest) ? Math.max(1, Math.ceil(soonest / 1000)) : 1;
    },
  };
  return registry;
}
