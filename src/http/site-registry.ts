/**
 * SiteRegistry: the sites a server holds: the default site at the root, and isolated sites under
 * `/s/<id>/...`, each built from the same seed on first use (by forking a pristine template, which is
 * far cheaper than rebuilding the fixture).
 */
import { createSite } from "../sandbox/fixtures/default-site.ts";
import type { Site } from "../sandbox/site.ts";

export interface SiteRegistry {
  /** The default site (served at the root). */
  readonly root: Site;
  /** The isolated site with this id, created on first use. */
  get(id: string): Site;
  /** Registers an existing site under an id (the env server binds episode sites this way). */
  set(id: string, site: Site): void;
  delete(id: string): boolean;
  has(id: string): boolean;
}

export function createSiteRegistry(seed: number): SiteRegistry {
  const template = createSite({ seed });
  const root = template.fork();
  const sites = new Map<string, Site>();
  return {
    root,
    get(id) {
      let site = sites.get(id);
      if (!site) {
        site = template.fork();
        sites.set(id, site);
      }
      return site;
    },
    set: (id, site) => void sites.set(id, site),
    delete: (id) => sites.delete(id),
    has: (id) => sites.has(id),
  };
}
