import { byCodePoint } from '../compare.js';
import { SchemaFileError, type ResourceModel, type SchemaModel } from '../model.js';
import { buildResourceModel } from './build-model.js';
import { checkMetaSchema } from './check-meta-schema.js';
import { checkColumnsUnique, checkImportKeysUnique, crossCheck } from './cross-check.js';

export { SchemaFileError } from '../model.js';

/**
 * Builds the model from the schema files' texts (keyed by repository-relative path).
 * Throws SchemaFileError naming the file and the JSON pointer of the first fault.
 */
export function loadModel(files: ReadonlyMap<string, string>): SchemaModel {
  const resources: ResourceModel[] = [];
  for (const [file, text] of [...files].sort(([a], [b]) => byCodePoint(a, b))) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SchemaFileError(file, '', `is not valid JSON: ${(error as Error).message}`);
    }
    checkMetaSchema(file, json);
    resources.push(buildResourceModel(file, json as Record<string, unknown>));
  }
  crossCheck(resources);
  checkColumnsUnique(resources);
  checkImportKeysUnique(resources);
  return { resources };
}
