/** getProject, searchProjects. */
import type { Operation } from "../../define-operation.ts";

export const PROJECT_OPERATIONS: readonly Operation[] = [];
