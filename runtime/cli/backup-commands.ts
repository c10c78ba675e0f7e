import { backupCommand, restoreCommand } from '../backup/index.js';
import { MIGRATIONS_DIR } from '../db/migrate.js';
import { requiredString } from './arguments.js';
import { defineCommand } from './command.js';
import { cadenceVersion, databaseEnv, print } from './operator-io.js';

/** The whole database, to a file and back. */

export const backupCommands = [
  defineCommand({
    name: 'backup',
    synopsis: '--out FILE',
    summary: 'the whole database, as of one moment (gzip)',
    options: { out: { type: 'string', value: 'FILE', help: 'where to write it' } },
    run: async ({ config, values }) => {
      const out = requiredString('out', values.out);
      print(await backupCommand(databaseEnv(config), { out, cadenceVersion: await cadenceVersion(), migrationsFolder: MIGRATIONS_DIR }));
    },
  }),
  defineCommand({
    name: 'restore',
    synopsis: '--in FILE',
    summary: 'a backup, into an empty database',
    options: { in: { type: 'string', value: 'FILE', help: 'a file cadence backup wrote' } },
    run: async ({ config, values }) => print(await restoreCommand(databaseEnv(config), { in: requiredString('in', values.in), migrationsFolder: MIGRATIONS_DIR })),
  }),
];
