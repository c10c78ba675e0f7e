import type { ErasureStep } from './step.js';

export type { ErasureContext, ErasureStep, ErasureSubject } from './step.js';

/** Placeholder until the trace steps land. */
export const TRACE_STEPS: readonly ErasureStep[] = [];
