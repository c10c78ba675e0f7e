import type { SchemaModel } from '../model.js';
import { byCodePoint } from '../compare.js';
import { formatGenerated } from '../format.js';
import { emitDescriptor } from './descriptors.js';
import { emitTable, emitTablesIndex } from './drizzle-tables.js';
import type { GeneratedFiles } from './header.js';
import { emitOpenApi } from './openapi.js';
import { emitResourceModule, emitResourcesIndex, type ModuleTemplates } from './resource-modules.js';
import { emitServedSchema } from './served-schema.js';
import { emitTypes } from './types.js';
import { emitValidators } from './validators.js';

export type { GeneratedFiles } from './header.js';
export type { ModuleTemplates } from './resource-modules.js';

/**
 * Every file under generated/, formatted, keyed by repository-relative path and sorted.
 * Pure apart from formatting: the same model gives the same bytes.
 */
export async function emitAll(model: SchemaModel, templates: ModuleTemplates): Promise<GeneratedFiles> {
  const raw = new Map<string, string>();
  for (const resource of model.resources) {
    raw.set(`generated/db/${resource.type}.ts`, emitTable(resource, model));
    raw.set(`generated/descriptors/${resource.type}.ts`, emitDescriptor(resource));
    raw.set(`generated/validators/${resource.type}.ts`, emitValidators(resource));
    raw.set(`generated/types/${resource.type}.ts`, await emitTypes(resource));
    raw.set(`generated/resources/${resource.type}.ts`, emitResourceModule(resource, templates));
  }
  raw.set('generated/db/index.ts', emitTablesIndex(model));
  raw.set('generated/resources/index.ts', emitResourcesIndex(model, templates));
  raw.set('generated/schema.json', emitServedSchema(model));
  raw.set('generated/openapi.json', emitOpenApi(model));

  const files: GeneratedFiles = new Map();
  for (const path of [...raw.keys()].sort(byCodePoint)) files.set(path, await formatGenerated(path, raw.get(path)!));
  return files;
}
