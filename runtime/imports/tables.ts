/**
 * CSV uploads (SPEC.md "CSV import", steps 1-3): the file itself is kept in PostgreSQL, in
 * chunks of 1 MiB, so every API and worker process sees it with nothing else to run. Tenant
 * tables like the resources (org_id in every key, row-level security).
 */
import { bigint, customType, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { orgs, timestampColumn } from '../db/system-tables.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** One upload link and, once used, what was uploaded through it. */
export const uploads = pgTable(
  'uploads',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    storageKey: uuid('storage_key').notNull(),
    /**
     * `awaiting` the PUT, `receiving` it, `uploaded`, `validated` (validating again is allowed),
     * `importing` while an import reads it, `imported` after.
     */
    state: text('state').notNull(),
    byteSize: bigint('byte_size', { mode: 'number' }),
    /** Hex SHA-512 of the bytes, computed while they were stored. */
    sha512: text('sha512'),
    /** Data records after the header row, once validated. */
    recordCount: integer('record_count'),
    /** The validate answer's headerValue: `[{header, value}]`. */
    headers: jsonb('headers'),
    createdAt: timestampColumn('created_at').notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    uploadedAt: timestampColumn('uploaded_at'),
    validatedAt: timestampColumn('validated_at'),
  },
  (t) => [primaryKey({ name: 'uploads_pkey', columns: [t.orgId, t.storageKey] }), index('uploads_created_at_idx').on(t.orgId, t.createdAt)],
);

/** The bytes of an upload, in order of `seq` (0, 1, ...). */
export const uploadChunks = pgTable(
  'upload_chunks',
  {
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    storageKey: uuid('storage_key').notNull(),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    primaryKey({ name: 'upload_chunks_pkey', columns: [t.orgId, t.storageKey, t.seq] }),
    foreignKey({ name: 'upload_chunks_upload_fk', columns: [t.orgId, t.storageKey], foreignColumns: [uploads.orgId, uploads.storageKey] }).onDelete('cascade'),
  ],
);

/**
 * The import-key values of every record (the attributes the schema marks x-importKey), lower
 * case, one row per value: how a CSV import finds a row's duplicates with an index under
 * row-level security, where an index on lower(column) or over an array's elements cannot be
 * used (lower() and && are not leakproof; text equality is). Kept by statement-level triggers
 * on the keyed tables (migrations/0019_import_key_triggers.sql), so every writer keeps it.
 */
export const importKeys = pgTable(
  'import_keys',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    resourceType: text('resource_type').notNull(),
    /** The keyed table's column: `emails`, `domain`, `name`. */
    keyColumn: text('key_column').notNull(),
    key: text('key').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'import_keys_pkey', columns: [t.orgId, t.resourceType, t.keyColumn, t.key, t.recordId] }),
    // The triggers find a record's keys by its id. This index leads with record_id, the one
    // index of a tenant table not led by org_id, so that no lookup of keys can use it: led by
    // org_id, it was walked for a young org (statistics from before the org had keys, so its
    // range looked like one row) and every key of the org read for each set of an import's
    // rows. Citus asks org_id of primary, unique and foreign keys, not of plain indexes.
    index('import_keys_record_idx').on(t.recordId, t.orgId, t.resourceType, t.keyColumn),
  ],
);
