/** findUsers, findAssignableUsers, getCurrentUser. */
import type { Operation } from "../../define-operation.ts";

export const USER_OPERATIONS: readonly Operation[] = [];
