import type { Context } from 'hono';
import { bearerToken } from '../auth/index.js';
import { unauthorized } from '../jsonapi/index.js';

/** The app token of a request to /api/app: `Authorization: Bearer <APP_TOKEN>`. */
export function appTokenOf(c: Context): string {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw unauthorized("An Authorization: Bearer <APP_TOKEN> header is required (a JWT signed with one of the app's keys)");
  return token;
}
