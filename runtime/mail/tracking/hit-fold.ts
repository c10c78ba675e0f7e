import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { descriptors } from '../../../generated/resources/index.js';
import { changesByName, SERVICE_ACTOR, type RecordWriter, type UpdateOperation } from '../../engine/index.js';
import { enqueueJobs } from '../../jobs/enqueue.js';
import { orgScopedTransaction, retryingOnConflict, type Transaction } from '../../tenancy/index.js';
import { claimHits, foldAgainAt, foldJob, type MailingHits } from './hit-store.js';

/**
 * Hits one fold claims at most, in one transaction. A fold's cost is per mailing, not per hit
 * (one update, its events and its prospect's): the more hits a set holds, the more of them share
 * a mailing's write.
 */
export const FOLD_SET_HITS = 5000;
/** Mailings per record-writer set, as bulk jobs write them. */
const MAILINGS_PER_WRITE = 1000;

export interface FoldDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly log: Logger;
}

/**
 * The fold of an org's tracking hits (the job `fold_tracking_hits`, one waiting per org, about
 * a second after the first hit the API appended; hit-store.ts). In one transaction it claims
 * and deletes up to FOLD_SET_HITS of the org's hits, counts them per mailing, and writes the
 * mailings they name through the record writer, one update per mailing in sets of a thousand,
 * so the events, webhooks and the
 * prospects' counters (behaviours.ts) follow as from any write. The delete commits with the
 * counts or not at all: a fold killed half-way (SIGKILL) leaves its hits to the next run, and
 * every hit is counted once. A full set enqueues the next fold at once, in the same transaction;
 * hits left that another fold's transaction holds get a fold a moment later, in case it rolls back.
 */
export function foldHitsTask(deps: FoldDependencies): Task {
  return async (payload) => {
    const orgId = Number((payload as { orgId?: unknown }).orgId);
    if (!Number.isSafeInteger(orgId) || orgId < 1) throw new Error('fold_tracking_hits needs an orgId');
    await retryingOnConflict(() => orgScopedTransaction(deps.sql, orgId, (tx) => foldSet(deps, tx, orgId)));
  };
}

async function foldSet(deps: FoldDependencies, tx: Transaction, orgId: number): Promise<void> {
  const mailings = await claimHits(tx, orgId, FOLD_SET_HITS);
  const effects = deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR });
  for (let start = 0; start < mailings.length; start += MAILINGS_PER_WRITE) {
    const chunk = mailings.slice(start, start + MAILINGS_PER_WRITE);
    const outcomes = await effects.write(chunk.map(foldOperation));
    outcomes.forEach((outcome, i) => {
      // A mailing deleted since its hits is answered `missing`: its hits count nowhere, as before.
      if (outcome.status === 'refused')
        deps.log.error({ orgId, mailingId: chunk[i]!.mailingId, err: outcome.error }, 'tracking hits not counted: the mailing refused them');
    });
  }
  const hits = mailings.reduce((sum, m) => sum + m.opens + m.clicks, 0);
  if (hits >= FOLD_SET_HITS) await enqueueJobs(tx, [{ ...foldJob(orgId), preserveRunAt: false }]);
  else {
    // Hits this fold could not claim are another fold's, whose transaction may still roll back
    // (its worker killed while it waits on a lock): graphile-worker does not run that fold's job
    // again once a newer job took its key, so this one leaves a fold behind it until none are left.
    const again = await foldAgainAt(tx, orgId);
    if (again) await enqueueJobs(tx, [foldJob(orgId, again)]);
  }
  deps.log.debug({ orgId, hits, mailings: mailings.length }, 'tracking hits folded');
}

const mailingDescriptor = () => descriptors.get('mailing')!;

/**
 * A mailing's hits of one set as one update, from the mailing as the writer locked it:
 * openCount and clickCount go up by the opens and clicks, openedAt and clickedAt are the first
 * ever (kept when set), and a delivered mailing becomes `opened`. A click counts as the open
 * when none was recorded before it, as a recipient who clicked has read the mail with images
 * blocked (the pixel never loaded): the set's first hit, when it is a click on a mailing with no
 * open yet. One domain event per mailing and set: `opened` (mailing.opened, delivered to
 * webhooks) when the set counted an open, else `clicked` (mailing_clicked, no webhook action).
 * So a subscriber gets a mailing.opened per fold, not per open: the exact total is the
 * openCount it carries.
 */
export function foldOperation(hits: MailingHits): UpdateOperation {
  return {
    kind: 'update',
    type: 'mailing',
    id: hits.mailingId,
    changes: (current) => {
      const openCount = Number(current.openCount ?? 0);
      const clickOpened = openCount === 0 && hits.firstKind === 'click';
      const opens = hits.opens + (clickOpened ? 1 : 0);
      const values: Record<string, unknown> = {};
      if (opens > 0) {
        values.openCount = openCount + opens;
        values.openedAt = current.openedAt ?? earliest(hits.firstOpenAt, clickOpened ? hits.firstClickAt : undefined);
        if (current.state === 'delivered') values.state = 'opened';
      }
      if (hits.clicks > 0) {
        values.clickCount = Number(current.clickCount ?? 0) + hits.clicks;
        values.clickedAt = current.clickedAt ?? hits.firstClickAt;
      }
      return { ...changesByName(mailingDescriptor(), values), domainEvent: opens > 0 ? 'opened' : 'clicked' };
    },
  };
}

/** The earlier of two ISO 8601 instants (same format, so they compare as text). */
function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return a < b ? a : b;
}
