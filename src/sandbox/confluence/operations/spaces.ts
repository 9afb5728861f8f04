/** getSpaces, getSpaceById. */
import type { Operation } from "../../define-operation.ts";

export const SPACE_OPERATIONS: readonly Operation[] = [];
