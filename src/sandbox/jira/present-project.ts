/**
 * Project presenters: the full `Project` of getProject (lead, issue types, roles) and the lighter
 * entries of searchProjects, whose description, lead and issue types come only with `expand`.
 */
import type { Site } from "../site.ts";
import type { Project } from "./model.ts";
import { presentIssueType, presentProjectRef, presentUserById } from "./present.ts";
import { projectIssueTypes } from "./store.ts";

type Json = Record<string, unknown>;

/** Who gets new issues when the assignee is left to the project default (`"-1"` in assignIssue). */
export const PROJECT_ASSIGNEE_TYPE = "PROJECT_LEAD";

/** The expansions a project answer advertises. */
const PROJECT_EXPAND = "description,lead,issueTypes,url,projectKeys,permissions,insight";

/** Role names and ids every simulated project has (real sites list these under `roles`). */
const ROLES: readonly [string, string][] = [
  ["Administrators", "10002"],
  ["Member", "10003"],
  ["Viewer", "10004"],
];

/** The parts every project answer shares. */
function projectBase(base: string, project: Project): Json {
  const ref = presentProjectRef(base, project);
  return {
    expand: PROJECT_EXPAND,
    self: ref.self,
    id: project.id,
    key: project.key,
    name: project.name,
    avatarUrls: ref.avatarUrls,
    projectTypeKey: "software",
    simplified: false,
    style: "classic",
    isPrivate: false,
    properties: {},
  };
}

function issueTypesOf(site: Site, base: string, project: Project): Json[] {
  return projectIssueTypes(site, project.id).map((t) => presentIssueType(base, t));
}

/** The full Project of `GET /project/{projectIdOrKey}`: description, lead and issue types always included. */
export function presentProject(site: Site, base: string, project: Project): Json {
  const lead = presentUserById(site, base, project.leadAccountId);
  return {
    ...projectBase(base, project),
    description: project.description,
    ...(lead ? { lead } : {}),
    components: [],
    issueTypes: issueTypesOf(site, base, project),
    assigneeType: PROJECT_ASSIGNEE_TYPE,
    versions: [],
    roles: Object.fromEntries(
      ROLES.map(([name, id]) => [name, `${base}/rest/api/3/project/${project.id}/role/${id}`]),
    ),
  };
}

/** A searchProjects entry: the base fields plus whatever `expand` asks for. */
export function presentProjectSummary(site: Site, base: string, project: Project, expand: string[]): Json {
  const bean = projectBase(base, project);
  if (expand.includes("description")) bean.description = project.description;
  if (expand.includes("lead")) {
    const lead = presentUserById(site, base, project.leadAccountId);
    if (lead) bean.lead = lead;
  }
  if (expand.includes("issueTypes")) bean.issueTypes = issueTypesOf(site, base, project);
  return bean;
}
