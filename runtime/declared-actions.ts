import type { ResourceDescriptor } from './model/descriptor.js';
import { IMPORT_ACTION_PATHS, UPLOAD_ACTION_PATHS } from './imports/index.js';
import { BULK_ACTIONS } from './bulk/actions/definitions.js';
import { UPSERT_PATHS } from './bulk/upsert-route.js';

/**
 * The schema declares the bulk endpoints, and the CSV upload steps, as collection actions (of
 * batch and import), so that /api/v2/schema and the OpenAPI document describe them; runtime/bulk
 * and runtime/imports serve them with routes of their own. This check sits beside app.ts, which
 * mounts both, so that neither feature imports the other's routes. The two are code and data, checked
 * against each other at start, so an action added or renamed on one side only fails the start
 * rather than a request or a client.
 */

/** The collection actions served by routes of their own, by the type whose schema declares them. */
export const SERVED_COLLECTION_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  batch: [...BULK_ACTIONS.keys()],
  import: [...Object.keys(UPSERT_PATHS), ...Object.keys(UPLOAD_ACTION_PATHS), ...Object.keys(IMPORT_ACTION_PATHS)],
};

/** Every disagreement between what `descriptors` declare and what `served` lists, one line each. */
export function collectionActionProblems(
  descriptors: ReadonlyMap<string, ResourceDescriptor>,
  served: Readonly<Record<string, readonly string[]>> = SERVED_COLLECTION_ACTIONS,
): string[] {
  const problems: string[] = [];
  const types = [...new Set([...descriptors.keys(), ...Object.keys(served)])].sort();
  for (const type of types) {
    const declared = descriptors.get(type)?.collectionActions.map((a) => a.name) ?? [];
    const serves = served[type] ?? [];
    for (const name of declared.filter((n) => !serves.includes(n))) problems.push(`${type}: the schema declares collection action ${name}, which nothing serves`);
    for (const name of serves.filter((n) => !declared.includes(n)).sort()) {
      problems.push(`${type}: collection action ${name} is served, but the schema does not declare it`);
    }
  }
  return problems;
}

/** Throws, naming each mismatch, unless the schema declares exactly the collection actions served. */
export function checkDeclaredActions(descriptors: ReadonlyMap<string, ResourceDescriptor>): void {
  const problems = collectionActionProblems(descriptors);
  if (problems.length > 0) throw new Error(`The schema's collection actions and the routes serving them disagree:\n${problems.join('\n')}`);
}
