import type postgres from 'postgres';
import { descriptors } from '../../../generated/routes/index.js';
import { changesByName, SERVICE_ACTOR, type RecordWriter, type UpdateOperation, type WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { relationshipAlias, toOnes } from '../../model/sql-text.js';
import { orgScopedTransaction, retryingOnConflict } from '../../tenancy/index.js';
import type { TrackingClaim } from './token.js';

export interface HitDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
}

/** What a hit did: `missing` when its mailing is gone (the hit is answered all the same). */
export type HitOutcome = 'recorded' | 'missing';

/**
 * Records one hit in its own transaction, through the record writer. Counts are computed
 * from the mailing as the writer locked it, so concurrent hits on one mailing take turns and
 * none is lost. The prospect's counters follow from the mailing's (behaviours.ts).
 */
export async function recordHit(deps: HitDependencies, claim: TrackingClaim): Promise<HitOutcome> {
  return retryingOnConflict(() =>
    orgScopedTransaction(deps.sql, claim.orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId: claim.orgId, actor: SERVICE_ACTOR, isolated: false });
      const operation = claim.kind === 'unsubscribe' ? unsubscribeOperation(claim.mailingId) : hitOperation(claim);
      const [outcome] = await effects.write([operation]);
      if (outcome!.status === 'missing') return 'missing';
      if (outcome!.status === 'refused') throw outcome!.error;
      if (claim.kind === 'unsubscribe') await optOutProspect(effects, outcome!.row);
      return 'recorded';
    }),
  );
}

const mailings = () => descriptors.get('mailing')!;
/** Where a written mailing row keeps its prospect's id. */
const PROSPECT_OF_MAILING = relationshipAlias(toOnes(mailings()).find((r) => r.name === 'prospect')!);

/**
 * An open: openCount goes up, openedAt is the first open, a delivered mailing becomes
 * `opened`, and `mailing.opened` is emitted for each one. A click counts in clickCount and
 * clickedAt (the first); it also counts as the open when none was recorded yet, as a
 * recipient who clicked has read the mail with images blocked (the pixel never loaded). It
 * records the domain event `clicked` (the event `mailing_clicked`), which no webhook delivers.
 */
function hitOperation(claim: TrackingClaim): UpdateOperation {
  return {
    kind: 'update',
    type: 'mailing',
    id: claim.mailingId,
    changes: (current, now) => {
      const at = now.toISOString();
      const opening = claim.kind === 'open' || !(Number(current.openCount ?? 0) > 0);
      const values: Record<string, unknown> = {};
      if (opening) {
        values.openCount = Number(current.openCount ?? 0) + 1;
        values.openedAt = current.openedAt ?? at;
        if (current.state === 'delivered') Object.assign(values, { state: 'opened', stateChangedAt: at });
      }
      if (claim.kind === 'click') {
        values.clickCount = Number(current.clickCount ?? 0) + 1;
        values.clickedAt = current.clickedAt ?? at;
      }
      return { ...changesByName(mailings(), values), domainEvent: opening ? 'opened' : 'clicked' };
    },
  };
}

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
