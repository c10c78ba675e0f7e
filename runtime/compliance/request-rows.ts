import type { Transaction } from '../tenancy/index.js';

export interface RequestRow {
  readonly id: number;
  readonly state: 'pending' | 'running' | 'done';
  /** The address the request erases; null once it is done. */
  readonly email: string;
}

/**
 * The request, locked until the transaction ends. Every task that finishes locks it before
 * counting what is left, so the last one to finish, and only that one, moves the request on.
 */
export async function lockRequest(tx: Transaction, orgId: number, requestId: number): Promise<RequestRow | undefined> {
  const [row] = await tx.unsafe<{ id: string; state: RequestRow['state']; request_object_email: string | null }[]>(
    'select id, state, request_object_email from compliance_requests where org_id = $1 and id = $2 for update',
    [orgId, requestId] as never[],
    { prepare: true },
  );
  return row && { id: Number(row.id), state: row.state, email: row.request_object_email ?? '' };
}

/**
 * Forgets the address once the request is done. A plain statement, not the writer: an update
 * event would carry the address in its `beforeUpdate`, after the events were scrubbed of it.
 */
export async function forgetAddress(tx: Transaction, orgId: number, requestId: number): Promise<void> {
  await tx.unsafe('update compliance_requests set request_object_email = null where org_id = $1 and id = $2', [orgId, requestId] as never[], { prepare: true });
}
