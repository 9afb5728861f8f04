/**
 * Remote issue link presenter: the `RemoteIssueLink` shape. Unset fields are left out (jira.js rejects
 * nulls there); `application` and the object's `icon` and `status.icon` default to `{}` as on real sites.
 */
import type { Site } from "../site.ts";
import type { RemoteLink } from "./model.ts";

export function remoteLinkSelf(site: Site, base: string, link: RemoteLink): string {
  const key = site.get("issues", link.issueId)?.key ?? link.issueId;
  return `${base}/rest/api/3/issue/${key}/remotelink/${link.id}`;
}

export function presentRemoteLink(site: Site, base: string, link: RemoteLink): Record<string, unknown> {
  const { url, title, summary, icon, status } = link.object;
  return {
    id: link.id,
    self: remoteLinkSelf(site, base, link),
    ...(link.globalId !== null ? { globalId: link.globalId } : {}),
    application: link.application ?? {},
    ...(link.relationship !== null ? { relationship: link.relationship } : {}),
    object: {
      url,
      title,
      ...(summary !== undefined ? { summary } : {}),
      icon: icon ?? {},
      status: status ? { ...status, icon: status.icon ?? {} } : { icon: {} },
    },
  };
}
