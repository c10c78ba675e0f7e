import { modules } from '../../generated/resources/index.js';
import type { AttributeDescriptor, BodyValidator, ResourceDescriptor } from '../engine/index.js';

/**
 * What each CSV import action imports into (SPEC.md "CSV import" step 4), and how it finds a
 * row's duplicates (rule 4): by `id`, else by the resource's import keys, the attributes the
 * schema marks `x-importKey` (prospects: any e-mail address; accounts: domain, else name).
 */

export type ImportAction = 'prospectsImport' | 'accountsImport';

export const IMPORT_ACTIONS: readonly ImportAction[] = ['prospectsImport', 'accountsImport'];

export interface ImportSubject {
  readonly action: ImportAction;
  readonly descriptor: ResourceDescriptor;
  readonly validateCreate: BodyValidator;
  readonly validateUpdate: BodyValidator;
  /** The import's `importType` (SPEC.md's `type`): accounts have their own, prospects the generic CSV one. */
  readonly importType: string;
  /** Import keys in the order they decide: the first one a row has a value for is its key. */
  readonly keys: readonly AttributeDescriptor[];
}

const DEFINITIONS: Record<ImportAction, { type: string; importType: string }> = {
  prospectsImport: { type: 'prospect', importType: 'csv' },
  accountsImport: { type: 'account', importType: 'account_csv' },
};

function subjectOf(action: ImportAction): ImportSubject {
  const { type, importType } = DEFINITIONS[action];
  const module = modules.get(type);
  if (!module?.validateCreate || !module.validateUpdate) throw new Error(`${action} imports into ${type}, which cannot be created and updated`);
  const keys = module.descriptor.attributes.filter((a) => a.importKey !== undefined).sort((a, b) => a.importKey! - b.importKey!);
  if (keys.length === 0) throw new Error(`${type} has no x-importKey attribute: ${action} could not find duplicates`);
  return { action, descriptor: module.descriptor, validateCreate: module.validateCreate, validateUpdate: module.validateUpdate, importType, keys };
}

/** Built at start-up, so that a schema that lost its import keys stops the process rather than an import. */
export const IMPORT_SUBJECTS: ReadonlyMap<ImportAction, ImportSubject> = new Map(IMPORT_ACTIONS.map((action) => [action, subjectOf(action)]));
