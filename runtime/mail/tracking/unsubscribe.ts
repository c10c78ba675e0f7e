import type postgres from 'postgres';
import { descriptors } from '../../../generated/resources/index.js';
import { changesByName, SERVICE_ACTOR, type RecordWriter, type UpdateOperation, type WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { relationshipAlias, toOnes } from '../../model/sql-text.js';
import { orgScopedTransaction, retryingOnConflict } from '../../tenancy/index.js';

export interface UnsubscribeDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
}

/** What an unsubscribe did: `missing` when its mailing is gone (the page is answered all the same). */
export type UnsubscribeOutcome = 'recorded' | 'missing';

/**
 * Records an unsubscribe in its own transaction, through the record writer, before the page
 * says it worked: unlike opens and clicks (hit-buffer.ts), it is never buffered, and a failure
 * is the request's.
 */
export async function recordUnsubscribe(deps: UnsubscribeDependencies, orgId: number, mailingId: number): Promise<UnsubscribeOutcome> {
  return retryingOnConflict(() =>
    orgScopedTransaction(deps.sql, orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR, isolated: false });
      const [outcome] = await effects.write([unsubscribeOperation(mailingId)]);
      if (outcome!.status === 'missing') return 'missing';
      if (outcome!.status === 'refused') throw outcome!.error;
      await optOutProspect(effects, outcome!.row);
      return 'recorded';
    }),
  );
}

const mailings = () => descriptors.get('mailing')!;
/** Where a written mailing row keeps its prospect's id. */
const PROSPECT_OF_MAILING = relationshipAlias(toOnes(mailings()).find((r) => r.name === 'prospect')!);

function unsubscribeOperation(mailingId: number): UpdateOperation {
  return {
    kind: 'update',
    type: 'mailing',
    id: mailingId,
    changes: (current, now) => changesByName(mailings(), current.unsubscribedAt ? {} : { unsubscribedAt: now.toISOString() }),
  };
}

/**
 * The mailing's prospect no longer takes e-mail: `emailOptedOut`, with when and the status the
 * reference names. Their live sequence states stop as any opt-out stops them (behaviours.ts).
 */
async function optOutProspect(effects: WriteEffects, mailing: Row): Promise<void> {
  const prospectId = Number(mailing[PROSPECT_OF_MAILING]);
  if (!(prospectId > 0)) return;
  const prospects = descriptors.get('prospect')!;
  await effects.write([
    {
      kind: 'update',
      type: 'prospect',
      id: prospectId,
      changes: (current, now) =>
        changesByName(prospects, current.emailOptedOut === true ? {} : { emailOptedOut: true, emailsOptedAt: now.toISOString(), emailsOptStatus: 'opted_out' }),
    },
  ]);
}
