import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import type { ResourceModel } from '../model.js';
import { createBodySchema, updateBodySchema } from './body-schemas.js';
import { generatedHeader } from './header.js';

// Both packages are CommonJS with a default export; under NodeNext the default sits one level down.
const addFormats = addFormatsModule.default;
const standaloneCode = standaloneCodeModule.default;

/**
 * One Ajv standalone module per resource exporting `validateCreate` and `validateUpdate`.
 * Ajv's ESM output still calls require() for its runtime helpers and formats, so the module
 * defines require with createRequire: that keeps it importable as plain ESM.
 */
/**
 * Gives the exports their declared type. Left to inference, TypeScript infers each exported
 * function's type from Ajv's thousands of generated lines whenever another file uses it, and
 * on a large program that inference has sent its checking of unrelated files astray (globals
 * such as Error unresolved). With the type declared, it never looks inside.
 */
function declaredExports(code: string): string {
  return code.replace(/\bexport const (validateCreate|validateUpdate) = /g, 'export const $1: BodyValidator = ');
}

export function emitValidators(resource: ResourceModel): string {
  const ajv = new Ajv({ code: { source: true, esm: true }, allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  const exports: Record<string, string> = {};
  if (resource.operations.create) {
    ajv.addSchema(createBodySchema(resource));
    exports.validateCreate = 'create';
  }
  if (resource.operations.update) {
    ajv.addSchema(updateBodySchema(resource));
    exports.validateUpdate = 'update';
  }
  const code = Object.keys(exports).length ? standaloneCode(ajv, exports) : 'export {};';
  return [
    generatedHeader(resource.file),
    '// @ts-nocheck',
    `import { createRequire } from 'node:module';`,
    `import type { BodyValidator } from '../../runtime/model/descriptor.js';`,
    `const require = createRequire(import.meta.url);`,
    declaredExports(code.replace(/^"use strict";/, '')),
    '',
  ].join('\n');
}
