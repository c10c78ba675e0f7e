import { createCatalog, referencesIndex, type Behaviours, type DynamicRecords, type DynamicReferences, type ResourceDescriptor } from '../engine/index.js';
import { apiErrorOfWrite } from '../engine/database-errors.js';
import { deleteRecord, findRecord, insertRecord, updateRecord, type RecordContext } from '../engine/records.js';
import type { RecordWriter, WriteOperation, WriteOutcome, WriteScope } from '../engine/write-operations.js';
import { ApiError } from '../jsonapi/index.js';

/**
 * TEMPORARY: a RecordWriter over the per-record write path (runtime/engine/records.ts), one
 * savepoint per record, until the set-based writer (runtime/engine/record-writer.ts) lands.
 * Same vocabulary, so replacing it is one line where the writer is constructed.
 */
export function createInterimRecordWriter(options: {
  descriptors: ReadonlyMap<string, ResourceDescriptor>;
  behaviours: Behaviours;
  clock: () => Date;
  dynamicReferences?: DynamicReferences;
  dynamicRecords?: DynamicRecords;
}): RecordWriter {
  const standardCatalog = createCatalog(options.descriptors);
  const referencesTo = referencesIndex(options.descriptors.values());
  return {
    async write(scope: WriteScope, operations: readonly WriteOperation[]): Promise<WriteOutcome[]> {
      const catalog = scope.catalog ?? standardCatalog;
      const outcomes: WriteOutcome[] = [];
      for (const operation of operations) {
        const entry = catalog.entry(operation.type);
        const context: RecordContext = {
          tx: scope.tx,
          orgId: scope.orgId,
          ...entry,
          behaviours: options.behaviours,
          catalog,
          now: options.clock(),
          actor: scope.actor,
          ...(options.dynamicReferences && { dynamicReferences: options.dynamicReferences }),
          ...(options.dynamicRecords && { dynamicRecords: options.dynamicRecords }),
        };
        await scope.tx.unsafe('savepoint record_write');
        try {
          const row = await writeOne(context, operation, referencesTo);
          await scope.tx.unsafe('release savepoint record_write');
          outcomes.push(row ? { status: 'written', row } : { status: 'missing' });
        } catch (error) {
          await scope.tx.unsafe('rollback to savepoint record_write');
          const refusal = error instanceof ApiError ? error : apiErrorOfWrite(entry.descriptor, error);
          if (!refusal) throw error;
          outcomes.push({ status: 'refused', error: refusal });
        }
      }
      return outcomes;
    },
  };
}

async function writeOne(context: RecordContext, operation: WriteOperation, referencesTo: ReturnType<typeof referencesIndex>) {
  if (operation.kind === 'create') return insertRecord(context, operation.changes);
  if (operation.kind === 'delete') return deleteRecord(context, operation.id, referencesTo(operation.type));
  const current = await findRecord(context, operation.id, 'update');
  if (!current) return undefined;
  const changes = typeof operation.changes === 'function' ? operation.changes(current) : operation.changes;
  // Empty changes write nothing and record no event (write-operations.ts).
  if (changes.attributes.size === 0 && changes.relationships.size === 0 && !operation.domainEvent) return current;
  return updateRecord(context, operation.id, changes, operation.domainEvent);
}
