import type { Transaction } from '../tenancy/index.js';

/**
 * The records every org has from its creation: its settings and the fixed sets the reference
 * serves read-only (task priorities, duties). They are rows of the org's own tables, not values
 * served from code, so tasks and sequence steps can point at a task priority with the same
 * (org_id, id) foreign key as at any other record. Migration 0034_org_standard_records wrote
 * the same rows for the orgs that existed before; a change here needs a migration too.
 */

/**
 * The reference names no set, only "High" as an example name and that priorities are listed
 * from lowest to highest weight; colors are 0xRRGGBB (the reference's 0xAARRGGBB example does
 * not fit the 32-bit integer column).
 */
export const TASK_PRIORITIES: readonly { name: string; weight: number; color: number }[] = [
  { name: 'Low', weight: 1, color: 0x8a94a6 },
  { name: 'Normal', weight: 2, color: 0x3b82f6 },
  { name: 'High', weight: 3, color: 0xff5951 },
];

/**
 * The suggested duties (the reference: "An Outreach-suggested role or job duty"; it lists no
 * names). symbolicName is the constant a client translates; dutyType tells them from a custom
 * duty's.
 */
export const DUTY_TYPE = 'duty';
export const DUTY_SYMBOLIC_NAMES: readonly string[] = [
  'account_executive',
  'account_manager',
  'customer_success_manager',
  'marketing',
  'sales_development_representative',
  'sales_manager',
  'sales_operations',
];

/**
 * Writes the org's standard records inside the caller's transaction, which must already be in
 * the org (enterOrg). The settings record takes the org's own id, so a client that knows its
 * org knows where its settings are (GET /api/v2/orgSettings/<orgId>).
 */
export async function insertOrgRecords(tx: Transaction, orgId: number): Promise<void> {
  await tx`insert into org_settings (org_id, id) overriding system value values (${orgId}, ${orgId})`;
  await tx`
    insert into task_priorities (org_id, name, weight, color)
    select ${orgId}, p.name, p.weight, p.color
    from jsonb_to_recordset(${tx.json(TASK_PRIORITIES)}) as p(name text, weight integer, color integer)`;
  await tx`
    insert into duties (org_id, duty_type, symbolic_name)
    select ${orgId}, ${DUTY_TYPE}, unnest(${tx.array([...DUTY_SYMBOLIC_NAMES])}::text[])`;
}
