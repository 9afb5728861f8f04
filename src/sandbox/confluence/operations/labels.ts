/** getPageLabels (v2) and the v1 label writes. */
import type { Operation } from "../../define-operation.ts";

export const LABEL_OPERATIONS: readonly Operation[] = [];
