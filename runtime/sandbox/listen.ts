/**
 * `cadence listen`: prints each event of an org as it commits and forwards it, as the webhook
 * delivery it would be, to a receiver under development (like `stripe listen`). It reads the
 * events table itself (listen-cursor.ts), so no worker need run and the API's writes do nothing
 * more for it.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type postgres from 'postgres';
import { descriptors } from '../../generated/resources/index.js';
import { restoredPayload } from '../engine/index.js';
import { AdminError, requireOrg } from '../operator/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { newCleanupToken } from '../webhooks/cleanup-token.js';
import { deliveryHeaders } from '../webhooks/delivery/index.js';
import { GENERIC_ACTIONS, subscriptionMatches } from '../webhooks/matching.js';
import { deliveryBody, deliveryJobId, type StoredEvent } from '../webhooks/payload.js';
import { ListenCursor, type ListenedEventRow } from './listen-cursor.js';
import { forwardDelivery, forwardTarget, type Forwarded } from './listen-forward.js';

/** A subscription as a webhook names one: resource and action, each possibly `*`. */
export interface EventPattern {
  readonly resource: string;
  readonly action: string;
}

export interface ListenOptions {
  readonly orgId: number;
  readonly forwardTo: URL;
  /** Empty: every event a webhook could be sent. */
  readonly events: readonly EventPattern[];
  readonly payloadVersion: 1 | 2;
  readonly json: boolean;
}

/**
 * The webhook id in `meta.jobId` (`<eventId>-<webhookId>`): listen's deliveries belong to no
 * webhook, and no webhook has id 0.
 */
export const LISTEN_WEBHOOK_ID = 0;

/** How long listen waits between polls that found nothing. */
const POLL_INTERVAL_MS = 200;

/** Reads `cadence listen`'s own arguments (its --version is the payload version, not Cadence's). */
export function parseListenArguments(argv: readonly string[]): ListenOptions & { rawEvents: string[] } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: { org: { type: 'string' }, 'forward-to': { type: 'string' }, events: { type: 'string' }, version: { type: 'string' }, json: { type: 'boolean' } },
    }));
  } catch (error) {
    const [what = ''] = (error as Error).message.split('. ');
    throw new AdminError(`listen: ${what.charAt(0).toLowerCase()}${what.slice(1)}`);
  }
  if (values.org === undefined || !/^[1-9][0-9]{0,15}$/.test(values.org)) throw new AdminError('--org must be a positive integer (the org id)');
  const version = values.version ?? '1';
  if (version !== '1' && version !== '2') throw new AdminError(`--version is the payload version, 1 or 2, not "${version}"`);
  const rawEvents = (values.events ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    orgId: Number(values.org),
    forwardTo: forwardTarget(values['forward-to']),
    events: rawEvents.map(eventPattern),
    rawEvents,
    payloadVersion: version === '2' ? 2 : 1,
    json: values.json ?? false,
  };
}

function eventPattern(text: string): EventPattern {
  const match = /^([A-Za-z][A-Za-z0-9_]*|\*)\.([a-z]+|\*)$/.exec(text);
  if (!match) throw new AdminError(`--events: "${text}" is not resource.action (e.g. prospect.*, mailing.opened, *.created)`);
  return { resource: match[1]!, action: match[2]! };
}

/** The actions webhooks can be sent for `type`: a resource's own, the generic three for a custom object, none otherwise. */
function webhookActionsOf(type: string, customObjects: ReadonlySet<string>): readonly string[] {
  const descriptor = descriptors.get(type);
  if (descriptor) return descriptor.webhookActions;
  return customObjects.has(type) ? [...GENERIC_ACTIONS] : [];
}

/** Each --events pattern must be a subscription a webhook could have (the webhook resource's check). */
function checkPatterns(patterns: readonly EventPattern[], customObjects: ReadonlySet<string>): void {
  for (const { resource, action } of patterns) {
    const actions = resource === '*' ? [...GENERIC_ACTIONS] : webhookActionsOf(resource, customObjects);
    if (actions.length === 0) throw new AdminError(`--events: ${JSON.stringify(resource)} is not a resource webhooks can watch`);
    if (action !== '*' && !actions.includes(action)) {
      throw new AdminError(`--events: ${resource} has no webhook action ${JSON.stringify(action)}; it has ${['*', ...actions].join(', ')}`);
    }
  }
}

/** Whether a webhook could be sent this event (a deliverable one) and --events covers it. */
function wanted(event: ListenedEventRow, options: ListenOptions, customObjects: ReadonlySet<string>): boolean {
  if (!webhookActionsOf(event.resourceType, customObjects).includes(event.action)) return false;
  return options.events.length === 0 || options.events.some((p) => subscriptionMatches(p, event.resourceType, event.action));
}

/** What listen prints: a line per event, and its start. */
export interface ListenOutput {
  write(line: string): void;
}

function eventLine(options: ListenOptions, at: Date, event: StoredEvent, forwarded: Forwarded): string {
  const { result, attempts } = forwarded;
  const eventName = `${event.resourceType}.${event.action}`;
  if (options.json) {
    const outcome = result.kind === 'response' ? { status: result.status } : { error: result.error };
    return JSON.stringify({
      at: at.toISOString(),
      eventName,
      resourceType: event.resourceType,
      resourceId: event.resourceId,
      eventId: event.id,
      ...outcome,
      attempts,
      latencyMs: result.latencyMs,
    });
  }
  const outcome = result.kind === 'response' ? `${result.status}` : `failed: ${result.error}`;
  const tries = attempts > 1 ? `, ${attempts} attempts` : '';
  return `${at.toISOString()}  ${eventName}  ${event.resourceType} ${event.resourceId}  event ${event.id}  -> ${outcome} (${result.latencyMs} ms${tries})`;
}

async function customObjectNames(sql: postgres.Sql, orgId: number): Promise<Set<string>> {
  const rows = await orgScopedTransaction(sql, orgId, (tx) => tx<{ name: string }[]>`select name from custom_object_definitions where org_id = ${orgId}`, {
    readOnly: true,
  });
  return new Set(rows.map((r) => r.name));
}

/**
 * Runs listen until `stop` resolves: checks the org and --events, prints the signing secret and
 * a ready line, then each event that commits from then on, forwarded one at a time in the order
 * it was read. Each delivery is built and signed by the functions real deliveries use
 * (deliveryBody, deliveryHeaders), for a webhook with the printed secret, a cleanup token made
 * at start (it names no webhook: the cleanup endpoint answers 404) and id LISTEN_WEBHOOK_ID.
 */
export async function runListen(sql: postgres.Sql, options: ListenOptions & { rawEvents: readonly string[] }, output: ListenOutput, stop: Promise<void>): Promise<void> {
  // The org table is not one an org's own role reads.
  await sql.begin((tx) => requireOrg(tx, options.orgId));
  let customObjects = await customObjectNames(sql, options.orgId);
  checkPatterns(options.events, customObjects);
  let stopped = false;
  let wake: () => void = () => {};
  void stop.then(() => {
    stopped = true;
    wake();
  });
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const cursor = new ListenCursor(sql, options.orgId);
  await cursor.start(
    (running) => process.stderr.write(`cadence listen: waiting for ${running} transaction(s) open at start to end\n`),
    () => stopped,
  );
  if (stopped) return;
  const secret = randomBytes(24).toString('hex');
  const cleanupToken = newCleanupToken(options.orgId);
  const events = options.rawEvents.length ? options.rawEvents.join(',') : 'all';
  if (options.json) {
    output.write(JSON.stringify({ ready: true, orgId: options.orgId, forwardTo: options.forwardTo.toString(), payloadVersion: options.payloadVersion, events, secret }));
  } else {
    output.write(`Signing secret: ${secret}  (Service-Webhook-Signature: hex HMAC-SHA256 of the body)`);
    output.write(
      `Ready: forwarding events of org ${options.orgId} (${events}, payload version ${options.payloadVersion}) to ${options.forwardTo.toString()}; Ctrl-C to stop`,
    );
  }

  while (!stopped) {
    let rows: ListenedEventRow[];
    try {
      rows = await cursor.next();
    } catch (error) {
      // A lost connection: the cursor moved nothing, so the next poll reads the same events.
      process.stderr.write(`cadence listen: reading events failed (${(error as Error).message}); trying again\n`);
      await pause(1000);
      continue;
    }
    // A custom object defined while listening: its events are deliverable too.
    if (rows.some((r) => !descriptors.has(r.resourceType) && !customObjects.has(r.resourceType))) customObjects = await customObjectNames(sql, options.orgId);
    for (const row of rows) {
      // Stopping does not wait for the rest of a poll's events, each up to 4 attempts long.
      if (stopped) break;
      if (!wanted(row, options, customObjects)) continue;
      const event = storedEvent(row);
      const at = new Date();
      const body = deliveryBody(event, options.payloadVersion, at, deliveryJobId(event.id, LISTEN_WEBHOOK_ID));
      const headers = deliveryHeaders({ url: options.forwardTo, body, secret, cleanupToken, eventId: String(event.id) });
      output.write(eventLine(options, at, event, await forwardDelivery(options.forwardTo, body, headers)));
    }
    if (rows.length === 0) await pause(POLL_INTERVAL_MS);
  }
}

function storedEvent(row: ListenedEventRow): StoredEvent {
  return {
    id: row.id,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    action: row.action,
    // A created event is stored without its nulls; deliveries of every payload version carry them.
    payload: restoredPayload((type) => descriptors.get(type), { resourceType: row.resourceType, action: row.action, payload: row.payload }) as StoredEvent['payload'],
  };
}
