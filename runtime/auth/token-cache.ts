import type { AuthContext } from './authenticate.js';

/** Tokens kept per process; past this the oldest entries go first. */
const DEFAULT_MAX_ENTRIES = 10_000;

interface CachedToken {
  readonly auth: AuthContext;
  /** When the token expires (epoch ms); an entry is dropped then, without asking the database. */
  readonly expiresAt: number;
}

/**
 * Who each recently seen access token acts for, by token hash (never the token itself), so a
 * read need not wait for its own token lookup. Nothing here is trusted on its own: every request
 * served from the cache rechecks the token in the statement that opens its transaction
 * (recheck.ts), so a revoked token fails its next request in any process, cached or not.
 * One instance per app, made at start.
 */
export class TokenCache {
  private readonly entries = new Map<string, CachedToken>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  get(tokenHash: string, now = Date.now()): AuthContext | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.auth;
    this.entries.delete(tokenHash);
    return undefined;
  }

  set(tokenHash: string, auth: AuthContext, expiresAt: Date): void {
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { auth, expiresAt: expiresAt.getTime() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }
}
