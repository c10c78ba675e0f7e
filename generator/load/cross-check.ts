import { SchemaFileError, type ResourceModel } from '../model.js';

/**
 * Checks what no single file can: relationship and action targets exist, inverses point back,
 * and no two resources claim one collection path.
 */
export function crossCheck(resources: readonly ResourceModel[]): void {
  const byType = new Map(resources.map((r) => [r.type, r]));
  const collections = new Map<string, string>();
  for (const resource of resources) {
    const other = collections.get(resource.collection);
    if (other) {
      throw new SchemaFileError(resource.file, '/links', `collection "${resource.collection}" is already used by ${other}`);
    }
    collections.set(resource.collection, resource.file);
    for (const action of [...resource.actions, ...resource.collectionActions]) {
      if (action.target !== undefined && !byType.has(action.target)) {
        throw new SchemaFileError(resource.file, '/links', `action ${action.name} answers with "${action.target}", which has no schema file`);
      }
    }
    for (const rel of resource.relationships) {
      const pointer = `/definitions/${rel.name}`;
      if (rel.kind === 'polymorphicToOne') {
        const missing = rel.targets.find((type) => !byType.has(type));
        if (missing !== undefined) throw new SchemaFileError(resource.file, `${pointer}/anyOf`, `target type "${missing}" has no schema file`);
        continue;
      }
      const target = byType.get(rel.target);
      if (!target) throw new SchemaFileError(resource.file, pointer, `target type "${rel.target}" has no schema file`);
      if (rel.kind !== 'toMany') continue;
      const back = target.relationships.find((r) => r.name === rel.inverse);
      if (!back || back.kind !== 'toOne' || back.target !== resource.type) {
        throw new SchemaFileError(
          resource.file,
          `${pointer}/x-inverse`,
          `"${rel.target}" has no to-one relationship "${rel.inverse}" pointing back to "${resource.type}"`,
        );
      }
    }
  }
}

/** Two definitions of one resource must not map to one column (`batchId` and `batch` would). */
export function checkColumnsUnique(resources: readonly ResourceModel[]): void {
  for (const resource of resources) {
    const seen = new Map<string, string>();
    const columns = [
      ...resource.attributes.filter((a) => a.relationshipId === undefined).map((a) => [a.name, a.column] as const),
      ...resource.relationships.flatMap((r) => (r.kind === 'toOne' ? [[r.name, r.column] as const] : [])),
      ...resource.relationships.flatMap((r) => (r.kind === 'polymorphicToOne' ? [[r.name, r.typeColumn] as const, [r.name, r.column] as const] : [])),
    ];
    for (const [name, column] of columns) {
      const other = seen.get(column);
      if (other) {
        throw new SchemaFileError(resource.file, `/definitions/${name}`, `its column "${column}" is already ${other}'s; mark an id attribute with x-relationshipId`);
      }
      seen.set(column, name);
    }
  }
}

/** The lowest import key a row has a value for decides, so two fields of one resource must not share a number. */
export function checkImportKeysUnique(resources: readonly ResourceModel[]): void {
  for (const resource of resources) {
    const seen = new Map<number, string>();
    for (const a of resource.attributes) {
      if (a.importKey === undefined) continue;
      const other = seen.get(a.importKey);
      if (other) throw new SchemaFileError(resource.file, `/definitions/${a.name}/x-importKey`, `import key ${a.importKey} is already ${other}'s`);
      seen.set(a.importKey, a.name);
    }
  }
}
