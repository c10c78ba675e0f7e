import type { Context } from 'hono';
import { descriptors } from '../../generated/routes/index.js';
import type { ApiEnv, Behaviours } from '../engine/index.js';
import { renderResource, type ResourceObject, type Row } from '../engine/render.js';
import { urlBase, viewerOf } from '../engine/responses.js';
import { buildStatements } from '../engine/statements.js';
import type { Transaction } from '../tenancy/index.js';

/**
 * A batch as GET /api/v2/batches/<id> shows it, for the answer to the request that made it:
 * read with the resource's own statement, presented by its behaviour (epoch-second times).
 */
export function batchResponder(options: { behaviours: Behaviours; publicBaseUrl: string | undefined; clock: () => Date }) {
  const descriptor = descriptors.get('batch')!;
  const { getOne } = buildStatements(descriptor);
  const collections = new Map([...descriptors].map(([type, d]) => [type, d.collection]));
  const present = options.behaviours.get('batch')?.present;
  return {
    async read(tx: Transaction, orgId: number, batchId: number): Promise<Row> {
      const [row] = await tx.unsafe<Row[]>(getOne, [orgId, batchId], { prepare: true });
      if (!row) throw new Error(`batch ${batchId} of org ${orgId} is missing`);
      return row;
    },
    render(c: Context<ApiEnv>, row: Row): ResourceObject {
      const shown = present ? present(row, viewerOf(c, options.clock())) : row;
      return renderResource(descriptor, shown, urlBase(c, options.publicBaseUrl), collections);
    },
  };
}
