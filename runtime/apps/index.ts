/**
 * Applications: registration, keys, installs (operator actions the CLI performs) and the
 * server-to-server endpoints under /api/app that trade app tokens for access tokens.
 */
export { createApp, type AppRegistration, type RegisteredApp } from './register.js';
export { listApps, type AppListing } from './listing.js';
export { addKey, revokeKey, parseRsaPublicKey } from './keys.js';
export { installApp, uninstallApp, SETUP_TOKEN_TTL_MS, type IssuedInstall } from './installs.js';
export { LIFECYCLE_TASK, type LifecycleEvent, type LifecycleEventType } from './lifecycle.js';
export { lockOrg, unlockOrg, deleteOrg, type OrgStatus } from './org-status.js';
export { verifyAppToken, checkAppTokenClaims, CLOCK_SKEW_SECONDS, MAX_APP_TOKEN_LIFETIME_SECONDS } from './app-token.js';
export { S2S_ACCESS_TOKEN_TTL_MS } from './access-token-action.js';
export { s2sScopes, unknownS2sScopes } from './scopes.js';
export { appInstallRoutes, type AppRoutesDependencies } from './routes.js';
