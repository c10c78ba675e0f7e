/**
 * OAuth 2.0 for third-party apps: users sign in with a password (set through the CLI or an
 * invitation) and consent; the app trades the code for access and refresh tokens at
 * /oauth/token. Access tokens are ordinary Cadence access tokens acting for the user and the
 * app, so they meet the same scope checks as every other token.
 */
export { oauthRoutes, type OAuthRoutesDependencies } from './routes.js';
export { storeCredentials, signIn, userEmail, CredentialProblem, MAX_FAILED_SIGN_INS, SIGN_IN_LOCK_MS } from './credentials.js';
export { inviteUser, INVITATION_TTL_MS, type IssuedInvitation } from './invitations.js';
export { AUTHORIZATION_CODE_TTL_MS, OAUTH_ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from './grants.js';
export { setPassword } from './set-password.js';
export { PURGE_EXPIRED_TOKENS_TASK, purgeExpiredTokensTask, TOKEN_CRONTAB } from './purge-task.js';
