import type { Context } from 'hono';
import { descriptors } from '../../generated/resources/index.js';
import type { ApiEnv, Behaviours } from '../engine/index.js';
import { renderResource, type ResourceObject, type Row } from '../engine/render.js';
import { urlBase, viewerOf } from '../engine/responses.js';
import { buildStatements } from '../engine/statements.js';
import type { Transaction } from '../tenancy/index.js';

export interface ResponderOptions {
  readonly behaviours: Behaviours;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
}

/**
 * A record of a standard resource as GET /api/v2/<collection>/<id> shows it, for the answer to
 * a request that made it (a bulk request's batch, an import): read with the resource's own
 * statement, presented by its behaviour.
 */
export function recordResponder(type: string, options: ResponderOptions) {
  const descriptor = descriptors.get(type)!;
  const { getOne } = buildStatements(descriptor);
  const collections = new Map([...descriptors].map(([t, d]) => [t, d.collection]));
  const present = options.behaviours.get(type)?.present;
  return {
    /** The record, which must exist (one this transaction wrote or locked). */
    async read(tx: Transaction, orgId: number, id: number): Promise<Row> {
      const row = await this.find(tx, orgId, id);
      if (!row) throw new Error(`${type} ${id} of org ${orgId} is missing`);
      return row;
    },
    /** The record, or undefined: one a concurrent request may have deleted since it was last read. */
    async find(tx: Transaction, orgId: number, id: number): Promise<Row | undefined> {
      const [row] = await tx.unsafe<Row[]>(getOne, [orgId, id], { prepare: true });
      return row;
    },
    render(c: Context<ApiEnv>, row: Row): ResourceObject {
      const shown = present ? present(row, viewerOf(c, options.clock())) : row;
      return renderResource(descriptor, shown, urlBase(c, options.publicBaseUrl), collections);
    },
  };
}

/** A batch as GET /api/v2/batches/<id> shows it (epoch-second times). */
export function batchResponder(options: ResponderOptions) {
  return recordResponder('batch', options);
}
