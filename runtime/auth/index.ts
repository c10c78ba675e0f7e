export { bearerAuthentication, bearerToken, lookupToken, type AuthContext } from './authenticate.js';
export { allows, requireScope, allScopes, type Access } from './scopes.js';
export { newAccessToken, hashToken } from './tokens.js';
export { actsForAppAlone, authorizingUser } from './actor.js';
