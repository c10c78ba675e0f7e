import { isObject, validationError, type FieldError } from '../jsonapi/index.js';
import { STORAGE_KEY } from './upload-url.js';

/**
 * The body of an import action (SPEC.md "CSV import" step 4):
 * `{data: {type?: "import", attributes: {storageKey, recordCount, dupeMethod?, mappings, fileName?}}}`.
 * Only its shape is checked here; the upload and the mappings are checked against what was
 * uploaded (import-route.ts, mappings.ts).
 */

/** SPEC.md "CSV import" rule 3; overwriteNoCreate is the bulk upsert's alone. */
export const IMPORT_DUPE_METHODS = ['skip', 'missing', 'overwrite'] as const;
export type ImportDupeMethod = (typeof IMPORT_DUPE_METHODS)[number];

export interface ImportRequest {
  readonly storageKey: string;
  readonly recordCount: number;
  readonly dupeMethod: ImportDupeMethod;
  readonly mappings: Readonly<Record<string, unknown>>;
  /** Attributes of the import record the client may set, kept on it as given. */
  readonly descriptive: Readonly<Record<string, string>>;
}

/** Free-text attributes of the import record a client may set when starting it. */
const DESCRIPTIVE = ['fileName', 'source', 'externalId', 'externalName', 'externalType', 'timeZone'] as const;
const ACCEPTED = new Set<string>(['storageKey', 'recordCount', 'dupeMethod', 'mappings', ...DESCRIPTIVE]);
const MAX_TEXT = 255;

const at = (name: string) => `/data/attributes/${name}`;

function recordCountOf(value: unknown): number | undefined {
  // validateUpload answers the count as a string; clients pass it on as it is or as a number.
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  return undefined;
}

export function parseImportRequest(body: Record<string, unknown>): ImportRequest {
  const data = body.data;
  if (!isObject(data)) throw validationError([{ pointer: '/data', detail: 'The body must have a "data" object' }]);
  if (data.type !== undefined && data.type !== 'import') throw validationError([{ pointer: '/data/type', detail: 'data.type must be "import" when given' }]);
  const attributes = data.attributes;
  if (!isObject(attributes))
    throw validationError([{ pointer: '/data/attributes', detail: 'data.attributes must be an object with storageKey, recordCount and mappings' }]);

  const problems: FieldError[] = [];
  for (const name of Object.keys(attributes)) {
    if (!ACCEPTED.has(name)) problems.push({ pointer: at(name), detail: `"${name}" is not an attribute an import takes; it takes ${[...ACCEPTED].join(', ')}` });
  }
  const { storageKey, mappings } = attributes;
  if (typeof storageKey !== 'string' || !STORAGE_KEY.test(storageKey)) {
    problems.push({ pointer: at('storageKey'), detail: 'storageKey must be the storageKey generateUploadLink gave, a UUID' });
  }
  const recordCount = recordCountOf(attributes.recordCount);
  if (recordCount === undefined) problems.push({ pointer: at('recordCount'), detail: 'recordCount must be the recordCount validateUpload answered, a whole number' });
  const dupeMethod = attributes.dupeMethod ?? 'skip';
  if (!IMPORT_DUPE_METHODS.includes(dupeMethod as ImportDupeMethod)) {
    problems.push({ pointer: at('dupeMethod'), detail: `dupeMethod must be one of ${IMPORT_DUPE_METHODS.join(', ')} (overwriteNoCreate is for bulk upserts)` });
  }
  if (!isObject(mappings)) problems.push({ pointer: at('mappings'), detail: 'mappings must be an object from CSV header to field name' });
  const descriptive: Record<string, string> = {};
  for (const name of DESCRIPTIVE) {
    const value = attributes[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.length > MAX_TEXT) problems.push({ pointer: at(name), detail: `${name} must be a string of at most ${MAX_TEXT} characters` });
    else descriptive[name] = value;
  }
  if (problems.length) throw validationError(problems);
  return {
    storageKey: (storageKey as string).toLowerCase(),
    recordCount: recordCount!,
    dupeMethod: dupeMethod as ImportDupeMethod,
    mappings: mappings as Record<string, unknown>,
    descriptive,
  };
}
