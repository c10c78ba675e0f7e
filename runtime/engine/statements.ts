import type { ResourceDescriptor } from './descriptor.js';
import { quoteIdent, selectList } from './sql-text.js';

/**
 * The fixed statements of one resource, built once per descriptor and reused (postgres.js
 * prepares them by their text). Statements whose columns vary per request are built by the
 * write path.
 */
export interface ResourceStatements {
  readonly selectList: string;
  readonly getOne: string;
  readonly getOneForUpdate: string;
  readonly deleteOne: string;
  readonly listFirst: string;
  readonly listAfter: string;
  readonly listBefore: string;
}

export function buildStatements(descriptor: ResourceDescriptor): ResourceStatements {
  const table = quoteIdent(descriptor.table);
  const columns = selectList(descriptor);
  const one = `select ${columns} from ${table} where "org_id" = $1 and "id" = $2`;
  return {
    selectList: columns,
    getOne: one,
    getOneForUpdate: `${one} for update`,
    deleteOne: `delete from ${table} where "org_id" = $1 and "id" = $2 returning ${columns}`,
    // One extra row tells whether a further page exists without counting.
    listFirst: `select ${columns} from ${table} where "org_id" = $1 order by "id" limit $2`,
    listAfter: `select ${columns} from ${table} where "org_id" = $1 and "id" > $3 order by "id" limit $2`,
    listBefore: `select * from (select ${columns} from ${table} where "org_id" = $1 and "id" < $3 order by "id" desc limit $2) page order by "id"`,
  };
}
