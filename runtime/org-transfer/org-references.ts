/**
 * Columns that hold the org's own id as a value besides org_id: the org's settings record has
 * the org's id (runtime/admin/org-records.ts), and events about it name it. An import gives
 * them the new org's id, as it does org_id. Record ids need no mapping: primary keys are
 * (org_id, id), so the new org's rows keep theirs without meeting another org's.
 */
export function withNewOrg(table: string, row: Record<string, unknown>, from: number, to: number): Record<string, unknown> {
  const moved: Record<string, unknown> = { ...row, org_id: to };
  if (table === 'public.org_settings' && Number(row.id) === from) moved.id = to;
  if (table === 'public.events' && row.resource_type === 'orgSetting' && Number(row.resource_id) === from) moved.resource_id = to;
  return moved;
}
