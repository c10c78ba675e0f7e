// Seeds the benchmark data set: orgs (with their admin user and token) through the admin
// module, then accounts and prospects in bulk with `insert ... select ... generate_series`.
import { createOrg, type CreatedOrg } from '../runtime/admin/index.js';
import { connectDatabase } from '../runtime/db/client.js';
import { quoteIdent } from '../runtime/model/sql-text.js';
import type { Transaction } from '../runtime/tenancy/index.js';

export interface SeedSize {
  readonly orgs: number;
  readonly accountsPerOrg: number;
  readonly prospectsPerOrg: number;
}

export interface SeededData {
  readonly orgs: CreatedOrg[];
  readonly seconds: number;
}

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Amara',
  'Ana',
  'Arjun',
  'Beatriz',
  'Ben',
  'Carlos',
  'Chen',
  'Chloe',
  'Dana',
  'David',
  'Elena',
  'Emeka',
  'Emma',
  'Farah',
  'Felix',
  'Grace',
  'Hana',
  'Hugo',
  'Ines',
  'Isaac',
  'Jamal',
  'Jin',
  'Julia',
  'Kai',
  'Kenji',
  'Lars',
  'Leila',
  'Liam',
  'Lucia',
  'Maya',
  'Mateo',
  'Mei',
  'Nadia',
  'Noah',
  'Olga',
  'Omar',
  'Priya',
  'Quinn',
  'Rafael',
  'Rosa',
  'Sami',
  'Sofia',
  'Tariq',
  'Tom',
  'Uma',
  'Victor',
  'Wei',
  'Yara',
  'Yusuf',
  'Zoe',
];
const LAST_NAMES = [
  'Abe',
  'Adeyemi',
  'Almeida',
  'Andersen',
  'Bauer',
  'Brown',
  'Castro',
  'Chen',
  'Cohen',
  'Dubois',
  'Eriksson',
  'Fischer',
  'Garcia',
  'Gupta',
  'Haddad',
  'Hansen',
  'Ito',
  'Ivanova',
  'Jones',
  'Kaur',
  'Kim',
  'Kowalski',
  'Larsen',
  'Lee',
  'Lopez',
  'Martin',
  'Meyer',
  'Moreau',
  'Mueller',
  'Nakamura',
  'Nguyen',
  'Novak',
  "O'Brien",
  'Okafor',
  'Park',
  'Patel',
  'Perez',
  'Rossi',
  'Santos',
  'Schmidt',
  'Silva',
  'Singh',
  'Smith',
  'Sato',
  'Tanaka',
  'Taylor',
  'Wang',
  'Williams',
  'Yilmaz',
  'Zhang',
];
const TITLES = [
  'Account Executive',
  'CEO',
  'CFO',
  'CTO',
  'Data Engineer',
  'Director of Engineering',
  'Director of Marketing',
  'Head of Growth',
  'Head of Sales',
  'IT Manager',
  'Marketing Manager',
  'Office Manager',
  'Operations Lead',
  'Procurement Specialist',
  'Product Manager',
  'Recruiter',
  'Sales Development Representative',
  'Software Engineer',
  'VP of Sales',
  'VP Operations',
];
const COMPANY_WORDS = [
  'Acme',
  'Apex',
  'Blue',
  'Bright',
  'Cedar',
  'Delta',
  'Globex',
  'Harbor',
  'Iron',
  'Lumen',
  'Nova',
  'Northwind',
  'Orbit',
  'Pine',
  'Quartz',
  'Summit',
  'Vertex',
];
const COMPANY_KINDS = ['Analytics', 'Bank', 'Biotech', 'Foods', 'Health', 'Labs', 'Logistics', 'Media', 'Robotics', 'Software', 'Systems', 'Telecom'];

/** A SQL array literal of string constants; the lists above are ours, quoting is all they need. */
export function textArray(values: readonly string[]): string {
  return `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
}

/** A random element of a SQL array expression, drawn per row. */
export function pick(array: string): string {
  return `(${array})[1 + floor(random() * cardinality(${array}))::int]`;
}

/**
 * The name of an org's n-th account ("Summit Logistics 17"), a function of n alone, so that a
 * prospect can name its account's company and email domain without a join.
 */
function accountName(n: string): string {
  const words = textArray(COMPANY_WORDS);
  const kinds = textArray(COMPANY_KINDS);
  return `((${words})[1 + ${n} % cardinality(${words})] || ' ' || (${kinds})[1 + (${n} / cardinality(${words})) % cardinality(${kinds})] || ' ' || ${n})`;
}

function domainOf(name: string): string {
  return `(lower(replace(${name}, ' ', '-')) || '.example')`;
}

// Accounts, ordered by org so that each org's ids form one run (checked after the insert).
const INSERT_ACCOUNTS = `
  insert into accounts (org_id, name, domain, company_type, annual_revenue_range, buyer_intent_score, named,
                        naics_codes, ticker_symbol, created_at, updated_at)
  select org_id, name, ${domainOf('name')}, company_type, revenue, round((random() * 100)::numeric, 1), random() < 0.2,
         array[(500000 + floor(random() * 400000))::text], case when random() < 0.05 then upper(left(name, 4)) end,
         created_at, created_at + random() * (now() - created_at)
    from (
      select o.org_id, o.n, g, ${accountName('g')} AS name,
             ${pick(textArray(['private', 'public', 'non-profit']))} AS company_type,
             ${pick(textArray(['0-1M', '1M-10M', '10M-100M', '100M+']))} AS revenue,
             now() - interval '365 days' + random() * interval '365 days' AS created_at
        from unnest($1::bigint[]) with ordinality AS o(org_id, n) cross join generate_series(1, $2::int) AS g
       order by o.n, g
    ) a`;

const ACCOUNT_RUNS = `
  select org_id, min(id) AS first_id, max(id) - min(id) + 1 AS span, count(*)::int AS n
    from accounts where org_id = any($1::bigint[]) group by org_id`;

// Prospects of every org, interleaved by id as rows of many tenants are in a real table. Most
// (90%) belong to a random account of their org and have an email at its domain; created_at
// climbs with the id over a year, and updated_at lies between it and now.
const INSERT_PROSPECTS = `
  insert into prospects (org_id, first_name, last_name, name, title, emails, company, account_id, owner_id,
                         click_count, open_count, reply_count, created_at, updated_at)
  select org_id, first_name, last_name, first_name || ' ' || last_name, title,
         case when g % 5 = 0 then array[address, lower(left(first_name, 1)) || g || '@mail.example'] else array[address] end,
         ${accountName('account_n')}, first_account_id + account_n - 1, case when g % 3 = 0 then owner_id end,
         floor(random() * 20)::int, floor(random() * 40)::int, floor(random() * 5)::int,
         created_at, created_at + random() * (now() - created_at)
    from (
      select chosen.*,
             lower(regexp_replace(first_name || '.' || last_name, '[^A-Za-z.]', '', 'g')) || g || '@'
               || coalesce(${domainOf(accountName('account_n'))}, 'mail.example') AS address
        from (
          select o.org_id, o.owner_id, o.first_account_id, g,
                 ${pick(textArray(FIRST_NAMES))} AS first_name, ${pick(textArray(LAST_NAMES))} AS last_name,
                 ${pick(textArray(TITLES))} AS title,
                 case when random() < 0.9 then 1 + floor(random() * $4::int)::int end AS account_n,
                 now() - interval '365 days' + (g::float8 / $2::int) * interval '365 days' + random() * interval '1 hour' AS created_at
            from generate_series(1, $2::int) AS g
           cross join unnest($1::bigint[], $3::bigint[], $5::bigint[]) AS o(org_id, owner_id, first_account_id)
        ) chosen
    ) p
   order by g, org_id`;

/** Inserts every org's accounts; returns the first account id of each org, in `orgIds` order. */
async function insertAccounts(tx: Transaction, orgIds: number[], perOrg: number): Promise<number[]> {
  await tx.unsafe(INSERT_ACCOUNTS, [orgIds, perOrg] as never[]);
  const runs = await tx.unsafe<{ org_id: number; first_id: number; span: number; n: number }[]>(ACCOUNT_RUNS, [orgIds] as never[]);
  return orgIds.map((id) => {
    const run = runs.find((r) => r.org_id === id);
    if (!run || run.span !== run.n) throw new Error(`the accounts of org ${id} did not get consecutive ids`);
    return run.first_id;
  });
}

/**
 * Runs a bulk load of `table` with its secondary indexes dropped, then builds them again:
 * building an index once is several times faster than keeping it up to date row by row. The
 * definitions are PostgreSQL's own, so the indexes come back exactly as they were.
 */
export async function withIndexesRebuilt(tx: Transaction, table: string, load: () => Promise<unknown>): Promise<void> {
  const indexes = await tx<{ name: string; definition: string }[]>`
    select c.relname as name, pg_get_indexdef(x.indexrelid) as definition
      from pg_index x join pg_class c on c.oid = x.indexrelid
     where x.indrelid = ${`public.${table}`}::regclass and not x.indisprimary`;
  for (const index of indexes) await tx.unsafe(`drop index ${quoteIdent(index.name)}`);
  await load();
  await tx`set local maintenance_work_mem = '256MB'`;
  for (const index of indexes) await tx.unsafe(index.definition);
}

/** Creates `size.orgs` orgs and fills them; returns the orgs with their tokens. */
export async function seedDatabase(url: string, size: SeedSize): Promise<SeededData> {
  const started = performance.now();
  const sql = connectDatabase(url, { max: 1 });
  try {
    const orgs: CreatedOrg[] = [];
    for (let i = 1; i <= size.orgs; i++) orgs.push(await createOrg(sql, { name: `Bench org ${i}` }));
    const orgIds = orgs.map((o) => o.orgId);
    const owners = orgs.map((o) => o.userId);
    await sql.begin(async (tx) => {
      // The same data on every run: random() follows the seed within this session.
      await tx`select setseed(0.42)`;
      const firstAccountIds = await insertAccounts(tx, orgIds, size.accountsPerOrg);
      await withIndexesRebuilt(tx, 'prospects', () =>
        tx.unsafe(INSERT_PROSPECTS, [orgIds, size.prospectsPerOrg, owners, size.accountsPerOrg, firstAccountIds] as never[]),
      );
    });
    await sql.unsafe('vacuum analyze');
    return { orgs, seconds: (performance.now() - started) / 1000 };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
