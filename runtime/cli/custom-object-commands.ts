import { readFile } from 'node:fs/promises';
import { descriptors } from '../../generated/resources/index.js';
import { AdminError } from '../admin/index.js';
import { defineCustomObject } from '../custom-objects/definitions.js';
import { ApiError } from '../jsonapi/index.js';
import { ORG_OPTION, positiveInteger, requiredString } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { print, withDatabase } from './operator-io.js';

/** Custom objects: an org's own resource types, from a JSON definition. */

export const customObjectCommands = [
  defineCommand({
    name: 'custom-object define',
    synopsis: '--org ID --file DEFINITION.json',
    summary: "define (or redefine) one of the org's custom objects",
    options: { org: ORG_OPTION, file: { type: 'string', value: 'FILE', help: 'the JSON definition (README, "Custom objects")' } },
    run: async ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const file = requiredString('file', values.file);
      let definition: unknown;
      try {
        definition = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new UsageError(`cannot read a JSON definition from ${file}: ${(error as Error).message}`);
      }
      return withDatabase(config, async (sql) => {
        try {
          const defined = await defineCustomObject(sql, orgId, definition, new Set(descriptors.keys()));
          print({ definitionId: defined.id, name: defined.name, version: defined.version });
        } catch (error) {
          // Definition faults are JSON:API errors; the CLI prints them as they are.
          if (error instanceof ApiError) throw new AdminError(JSON.stringify({ errors: error.errors }));
          throw error;
        }
      });
    },
  }),
];
