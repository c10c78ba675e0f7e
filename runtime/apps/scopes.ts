/**
 * SPEC.md's server-to-server scope table: the only scopes an app may pick for its S2S tokens.
 * It is narrower than the OAuth scopes: no deletes on events and imports, read-only for the rest.
 */
const S2S_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  accounts: ['all', 'delete', 'read', 'write'],
  calls: ['all', 'delete', 'read', 'write'],
  opportunities: ['all', 'delete', 'read', 'write'],
  prospects: ['all', 'delete', 'read', 'write'],
  sequenceStates: ['all', 'delete', 'read', 'write'],
  sequences: ['all', 'delete', 'read', 'write'],
  tasks: ['all', 'delete', 'read', 'write'],
  events: ['all', 'read', 'write'],
  imports: ['all', 'read', 'write'],
  webhooks: ['all', 'delete', 'read', 'write'],
  auditLogs: ['read'],
  kaiaRecordings: ['read'],
  mailings: ['read'],
  snippets: ['read'],
  templates: ['read'],
  users: ['read'],
};

/** Every scope an S2S token can hold, sorted. */
export function s2sScopes(): string[] {
  return Object.entries(S2S_VARIANTS)
    .flatMap(([stem, variants]) => variants.map((v) => `${stem}.${v}`))
    .sort();
}

/** The names in `scopes` that SPEC.md's S2S table does not list. */
export function unknownS2sScopes(scopes: readonly string[]): string[] {
  const known = new Set(s2sScopes());
  return scopes.filter((s) => !known.has(s));
}
