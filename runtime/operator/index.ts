import { descriptors } from '../../generated/resources/index.js';
import { allScopes } from '../auth/index.js';
import { CUSTOM_OBJECT_SCOPE } from '../custom-objects/descriptor.js';
import type { Transaction } from '../tenancy/index.js';

/**
 * What operator commands share, whichever feature carries them out (runtime/admin, apps, oauth,
 * ratelimit): their error, the org check, and the scopes a token may name. A folder of its own,
 * below the features, so that none of them imports runtime/admin, which builds the record writer
 * of every resource.
 */

export class AdminError extends Error {
  override name = 'AdminError';
}

/** Every scope a token can hold. */
export function knownScopes(): string[] {
  return allScopes([...[...descriptors.values()].map((d) => d.scope), CUSTOM_OBJECT_SCOPE]);
}

/** Operator commands name orgs by id; a deleted or unknown one gets a clear error. */
export async function requireOrg(tx: Transaction, orgId: number): Promise<void> {
  const [org] = await tx`select 1 from cadence_system.orgs where id = ${orgId} and deleted_at is null`;
  if (!org) throw new AdminError(`org ${orgId} does not exist`);
}
