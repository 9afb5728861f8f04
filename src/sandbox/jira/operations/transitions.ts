/** getTransitions, doTransition. */
import type { Operation } from "../../define-operation.ts";

export const TRANSITION_OPERATIONS: readonly Operation[] = [];
