import type { ResourceDescriptor } from '../model/descriptor.js';
import { partitionPredicate, quoteIdent, selectList } from '../model/sql-text.js';

/**
 * The fixed statements of one resource, built once per descriptor and reused (postgres.js
 * prepares them by their text). Writes' statements are built by the record writer
 * (set-statements.ts).
 */
export interface ResourceStatements {
  readonly selectList: string;
  readonly getOne: string;
}

export function buildStatements(descriptor: ResourceDescriptor): ResourceStatements {
  const table = quoteIdent(descriptor.table);
  const columns = selectList(descriptor);
  const partition = partitionPredicate(descriptor);
  const one = `select ${columns} from ${table} where "org_id" = $1 and "id" = $2${partition}`;
  return {
    selectList: columns,
    getOne: one,
  };
}
