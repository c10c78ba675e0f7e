import { openCsv } from './csv-records.js';

/**
 * What validateUpload answers about a CSV file (SPEC.md "Upload and validation results"): its
 * headers with the first row's values, and how many rows follow the header, malformed ones
 * included, as an import of the file goes through them (csv-records.ts).
 */

export { InvalidCsv, MAX_RECORD_BYTES } from './csv-records.js';

export interface HeaderValue {
  readonly header: string;
  readonly value: string;
}

export interface CsvSummary {
  readonly headerValue: readonly HeaderValue[];
  readonly recordCount: number;
}

/** Parses the whole file, keeping only the first well-formed row; throws InvalidCsv when it is not CSV. */
export async function summarizeCsv(chunks: AsyncIterable<Uint8Array>): Promise<CsvSummary> {
  const file = await openCsv(chunks);
  let first: readonly string[] | undefined;
  let recordCount = 0;
  for await (const row of file.rows) {
    if (first === undefined && 'values' in row) first = row.values;
    recordCount += 1;
  }
  const values = first ?? [];
  return { headerValue: file.headers.map((header, index) => ({ header, value: values[index] ?? '' })), recordCount };
}
