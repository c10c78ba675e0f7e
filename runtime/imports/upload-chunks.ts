import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';

/**
 * An upload's bytes in order (upload_chunks, 1 MiB each), one chunk per short read-only
 * transaction: validating or importing a large file holds no connection for the whole read.
 * An uploaded file's chunks never change, so reading them apart is reading them whole.
 */
export async function* uploadedChunks(sql: postgres.Sql, orgId: number, storageKey: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const [row] = await orgScopedTransaction(
      sql,
      orgId,
      (tx) => tx<{ bytes: Buffer }[]>`select bytes from upload_chunks where org_id = ${orgId} and storage_key = ${storageKey} and seq = ${seq}`,
      { readOnly: true },
    );
    if (!row) return;
    yield row.bytes;
  }
}
