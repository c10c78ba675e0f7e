import { defineConfig } from 'drizzle-kit';

// drizzle-kit derives the SQL migrations in migrations/ from the generated tables and the
// hand-written system tables. Run `npm run migrations:generate -- --name <what>` after a schema edit.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './generated/db/index.ts',
    './runtime/db/system-tables.ts',
    './runtime/webhooks/tables.ts',
    './runtime/custom-objects/tables.ts',
    './runtime/apps/tables.ts',
    './runtime/oauth/tables.ts',
    './runtime/jobs/tables.ts',
    './runtime/bulk/tables.ts',
    './runtime/imports/tables.ts',
    './runtime/sequences/tables.ts',
    './runtime/mail/sync/tables.ts',
    './runtime/mail/tables.ts',
    './runtime/mail/tracking/tables.ts',
    './runtime/ratelimit/tables.ts',
    './runtime/sandbox/tables.ts',
  ],
  out: './migrations',
  strict: true,
});
