// Seeds the custom-object data set: in every org, a `booking` object defined through the
// definitions service (which assigns its storage slots), then its records in bulk SQL into
// custom_object_records, in the slots the definitions name, each pointing at a prospect of its org.
import { descriptors } from '../generated/resources/index.js';
import type { CreatedOrg } from '../runtime/admin/index.js';
import { createDefinition, type StoredDefinition } from '../runtime/custom-objects/definitions.js';
import { connectDatabase } from '../runtime/db/client.js';
import { quoteIdent } from '../runtime/model/sql-text.js';
import { pick, textArray, withIndexesRebuilt } from './seed.js';

export const BOOKING_NAME = 'booking';

/** The definition every org gets, as an admin would send it (README, Custom objects). */
export const BOOKING_DEFINITION = {
  name: BOOKING_NAME,
  displayName: 'Booking',
  displayField: 'title',
  fields: [
    { name: 'title', type: 'string', required: true, filterable: true, sortable: true },
    { name: 'startsAt', type: 'date-time', filterable: true, sortable: true },
    { name: 'status', type: 'string', filterable: true },
    { name: 'amount', type: 'number', sortable: true },
  ],
  relationships: [{ name: 'prospect', target: 'prospect' }],
} as const;

/** Drawn uniformly: each status is a quarter of an org's bookings. */
export const BOOKING_STATUSES = ['cancelled', 'completed', 'confirmed', 'tentative'];
const BOOKING_TITLES = [
  'Discovery call',
  'Product demo',
  'Technical deep dive',
  'Pricing review',
  'Onboarding session',
  'Quarterly review',
  'Renewal meeting',
  'Executive briefing',
  'Security review',
  'Workshop',
  'Follow-up call',
  'Contract signing',
];

/** Where the definition put each field and relationship: the same in every org, checked. */
export interface BookingSlots {
  readonly title: string;
  readonly startsAt: string;
  readonly status: string;
  readonly amount: string;
  readonly prospect: string;
}

export interface SeededBookings {
  /** Definition id of `booking` in each org. */
  readonly definitionIds: ReadonlyMap<number, number>;
  readonly slots: BookingSlots;
  readonly records: number;
}

function slotsOf(definition: StoredDefinition): BookingSlots {
  const field = (name: string) => {
    const slot = definition.fields.find((f) => f.name === name)?.slot;
    if (!slot) throw new Error(`the ${BOOKING_NAME} definition has no slot for ${name}`);
    return slot;
  };
  const relationship = definition.relationships.find((r) => r.name === 'prospect');
  const prospect = relationship && 'slot' in relationship ? relationship.slot : undefined;
  if (!prospect) throw new Error(`the ${BOOKING_NAME} definition has no slot for prospect`);
  return { title: field('title'), startsAt: field('startsAt'), status: field('status'), amount: field('amount'), prospect };
}

// Every org's prospects numbered 1..n, so that a booking can draw one of its org's at random.
const NUMBER_PROSPECTS = `
  create temp table bench_prospect_numbers on commit drop as
  select org_id, id, row_number() over (partition by org_id order by id)::int as n
    from prospects where org_id = any($1::bigint[])`;

/**
 * Bookings of every org interleaved by id, as rows of many tenants are in the shared table.
 * startsAt lies within six months either side of now, amount between 0 and 5,000; created_at
 * climbs with the id over a year and updated_at lies between it and now, as for prospects.
 */
function insertBookings(slots: BookingSlots): string {
  const columns = [slots.title, slots.startsAt, slots.status, slots.amount, slots.prospect].map(quoteIdent).join(', ');
  return `
  insert into custom_object_records (org_id, definition_id, ${columns}, created_at, updated_at)
  select b.org_id, b.definition_id, b.title, b.starts_at, b.status, b.amount, p.id, b.created_at, b.created_at + random() * (now() - b.created_at)
    from (
      select o.org_id, o.definition_id, g,
             ${pick(textArray(BOOKING_TITLES))} AS title,
             now() - interval '182 days' + random() * interval '365 days' AS starts_at,
             ${pick(textArray(BOOKING_STATUSES))} AS status,
             round((random() * 5000)::numeric, 2)::float8 AS amount,
             1 + floor(random() * o.prospects)::int AS prospect_n,
             now() - interval '365 days' + (g::float8 / $2::int) * interval '365 days' + random() * interval '1 hour' AS created_at
        from generate_series(1, $2::int) AS g
       cross join unnest($1::bigint[], $3::bigint[], $4::int[]) AS o(org_id, definition_id, prospects)
    ) b
    join bench_prospect_numbers p on p.org_id = b.org_id and p.n = b.prospect_n
   order by b.g, b.org_id`;
}

/** Defines `booking` in every org and inserts `perOrg` records of it per org. */
export async function seedBookings(url: string, orgs: readonly CreatedOrg[], perOrg: number): Promise<SeededBookings> {
  const sql = connectDatabase(url, { max: 1 });
  try {
    const standardTypes = new Set(descriptors.keys());
    const definitions: StoredDefinition[] = [];
    for (const org of orgs) definitions.push(await createDefinition(sql, org.orgId, BOOKING_DEFINITION, standardTypes));
    const slots = slotsOf(definitions[0]!);
    for (const definition of definitions) {
      if (JSON.stringify(slotsOf(definition)) !== JSON.stringify(slots)) throw new Error('the orgs got different slots for the same definition');
    }
    const orgIds = orgs.map((o) => o.orgId);
    await sql.begin(async (tx) => {
      await tx`select setseed(0.24)`;
      await tx`set local work_mem = '256MB'`;
      await tx.unsafe(NUMBER_PROSPECTS, [orgIds] as never[]);
      const counts = await tx<{ org_id: number; n: number }[]>`select org_id, count(*)::int as n from bench_prospect_numbers group by org_id`;
      const prospects = orgIds.map((id) => counts.find((c) => Number(c.org_id) === id)?.n ?? 0);
      if (prospects.some((n) => n === 0)) throw new Error('custom object records point at prospects: seed prospects first');
      await tx`analyze bench_prospect_numbers`;
      await withIndexesRebuilt(tx, 'custom_object_records', () => tx.unsafe(insertBookings(slots), [orgIds, perOrg, definitions.map((d) => d.id), prospects] as never[]));
    });
    await sql.unsafe('vacuum analyze custom_object_records, custom_object_definitions');
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from custom_object_records`;
    return { definitionIds: new Map(orgs.map((o, i) => [o.orgId, definitions[i]!.id])), slots, records: row!.n };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
