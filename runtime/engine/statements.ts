import type { ResourceDescriptor } from '../model/descriptor.js';
import { partitionPredicate, quoteIdent, selectList } from '../model/sql-text.js';

/**
 * The fixed statements of one resource, built once per descriptor and reused (postgres.js
 * prepares them by their text). Statements whose columns vary per request are built by the
 * write path.
 */
export interface ResourceStatements {
  readonly selectList: string;
  readonly getOne: string;
  /**
   * Locks the row as its UPDATE will (FOR NO KEY UPDATE: no update changes a key). Unlike FOR
   * UPDATE it does not wait for, nor block, the foreign-key checks of rows inserted elsewhere
   * that reference it; a transaction that inserted such a row and then asked for FOR UPDATE
   * would deadlock with another doing the same.
   */
  readonly getOneForUpdate: string;
  /** FOR UPDATE, what DELETE takes: new references to the row wait until the delete is decided. */
  readonly getOneForDelete: string;
  readonly deleteOne: string;
}

export function buildStatements(descriptor: ResourceDescriptor): ResourceStatements {
  const table = quoteIdent(descriptor.table);
  const columns = selectList(descriptor);
  const partition = partitionPredicate(descriptor);
  const one = `select ${columns} from ${table} where "org_id" = $1 and "id" = $2${partition}`;
  return {
    selectList: columns,
    getOne: one,
    getOneForUpdate: `${one} for no key update`,
    getOneForDelete: `${one} for update`,
    deleteOne: `delete from ${table} where "org_id" = $1 and "id" = $2${partition} returning ${columns}`,
  };
}
