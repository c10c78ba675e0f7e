export { bearerAuthentication, bearerToken, lookupToken, type AuthContext, type BearerAuthenticationOptions } from './authenticate.js';
export { confirmedAuth, isStaleTokenError, retryingWhenTokenStale, StaleToken, TokenRecheck, type AuthEnv } from './recheck.js';
export { TokenCache } from './token-cache.js';
export { allows, requireScope, allScopes, type Access } from './scopes.js';
export { newAccessToken, hashToken } from './tokens.js';
export { actsForAppAlone, authorizingUser } from './actor.js';
