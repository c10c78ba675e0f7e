import type { CatalogTable } from '../backup/index.js';

/**
 * Tables with an org_id column whose rows an export never carries, with the reason. Every other
 * such table is exported: the list of tables comes from pg_catalog, so a new tenant table is
 * carried without an edit here (test/api/org-transfer.test.ts holds the two together).
 */
export const LEFT_OUT_TABLES: Readonly<Record<string, string>> = {
  'cadence_system.request_counts': 'request rate-limit counts of the current hours, deleted within hours; the new org starts counting afresh',
  'cadence_system.app_installs': 'applications are registered per deployment; install them again in the new one (cadence app install)',
  'cadence_system.oauth_grants': "users' consents to applications of this deployment; they consent again to the new one's",
  'cadence_system.sandbox_clocks': "a sandbox's test clock (CADENCE_SANDBOX): the new org starts on real time",
};

/**
 * The org's sign-in credentials: carried only when asked (--with-tokens), since a file handed
 * to a customer should not let anyone sign in. Tokens of applications (server-to-server and
 * OAuth) stay behind with the installs and grants they belong to.
 */
export const CREDENTIAL_TABLES: Readonly<Record<string, string>> = {
  'cadence_system.access_tokens': 'app_guid is null and grant_id is null',
  'cadence_system.user_credentials': 'true',
  'cadence_system.user_invitations': 'true',
};

/** The tables an export of an org carries, with the condition their rows meet besides the org. */
export function exportedTables(tables: readonly CatalogTable[], withTokens: boolean): { table: CatalogTable; condition: string }[] {
  return tables
    .filter((t) => t.orgScoped && !Object.hasOwn(LEFT_OUT_TABLES, t.table) && (withTokens || !Object.hasOwn(CREDENTIAL_TABLES, t.table)))
    .map((table) => ({ table, condition: CREDENTIAL_TABLES[table.table] ?? 'true' }));
}

/** Why each org-scoped table an export leaves out is left out. */
export function leftOutTables(tables: readonly CatalogTable[], withTokens: boolean): Record<string, string> {
  const leftOut: Record<string, string> = {};
  for (const t of tables.filter((t) => t.orgScoped)) {
    if (Object.hasOwn(LEFT_OUT_TABLES, t.table)) leftOut[t.table] = LEFT_OUT_TABLES[t.table]!;
    else if (!withTokens && Object.hasOwn(CREDENTIAL_TABLES, t.table)) leftOut[t.table] = 'sign-in credentials, carried only with --with-tokens';
  }
  return leftOut;
}
