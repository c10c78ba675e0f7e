/**
 * Cadence as a local sandbox for integrations: `cadence listen` (listen.ts) prints and forwards an
 * org's events as they commit, `cadence trigger` makes the records that fire a
 * webhook event, `cadence sandbox init|seed` writes realistic sample data, `cadence org reset`
 * empties an org but its users and tokens. What they write goes through the record writer.
 * With CADENCE_SANDBOX=true, each org's test clock (clock.ts) can be moved forward, over HTTP
 * (clock-routes.ts) or with `cadence clock` (clock-command.ts).
 */
export { triggerEvent, triggerRecipes, type TriggerDependencies, type TriggerResult } from './trigger.js';
export type { MadeRecord } from './writes.js';
export { DEFAULT_PROSPECTS, MAX_PROSPECTS, seedOrg, type SeedDependencies, type SeedOptions, type SeedSummary } from './seed.js';
export { SANDBOX_CUSTOM_OBJECTS } from './custom-objects.js';
export { deletionOrder, resetOrg, type ResetDependencies, type ResetSummary } from './reset.js';
export { LISTEN_WEBHOOK_ID, parseListenArguments, runListen, type EventPattern, type ListenOptions, type ListenOutput } from './listen.js';
export { advanceSandboxClock, MAX_ADVANCE_SECONDS, readSandboxClock, type SandboxClockState } from './clock.js';
export { mountSandboxClockRoutes, orgTimeOfRequest, type SandboxClockRouteOptions } from './clock-routes.js';
export { clockRequest, parseDuration, runClockCommand, type ClockRequest } from './clock-command.js';
export { orgOfPayload, tasksInOrgTime } from './org-time-tasks.js';
