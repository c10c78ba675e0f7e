import type { AttributeDescriptor, AttributeType } from '../engine/index.js';
import type { ColumnMapping } from './mappings.js';

/**
 * A CSV row's cells as the values of a JSON:API body (README "CSV import"). Cells are text;
 * each becomes its field's type:
 * - an empty cell (or one of only spaces) sets nothing, so `overwrite` never blanks a field;
 * - numbers and integers in decimal notation (`1234.5`, `-3`);
 * - booleans: true/false, yes/no, 1/0, in any case;
 * - dates `YYYY-MM-DD`; date-times in ISO 8601 with a time zone;
 * - lists (e-mails, tags, phone numbers) split on `;`, each item trimmed, empty items dropped;
 * - objects as JSON text;
 * - `id` and to-one relationships as record ids (positive integers).
 * Text is kept as written, less surrounding spaces. A cell that does not convert fails its row,
 * naming the column; the resource's own rules (formats, lengths, enums) are checked afterwards
 * by its create or update validator, as for any write.
 */

export const LIST_SEPARATOR = ';';

/** A row's cells converted: the body's parts, and any cell that would not convert. */
export interface RowValues {
  readonly id?: number;
  readonly attributes: Record<string, unknown>;
  readonly relationships: Record<string, { data: { type: string; id: string } }>;
  /** Cells that did not convert, by column: the row fails with these. */
  readonly problems: readonly CellProblem[];
}

export interface CellProblem {
  readonly header: string;
  readonly fieldName: string;
  readonly detail: string;
  /** Where the field is in a JSON:API body: `/data/id`, `/data/attributes/<name>` or `/data/relationships/<name>`. */
  readonly pointer: string;
}

function pointerOf(column: ColumnMapping): string {
  const { field } = column;
  if (field.kind === 'id') return '/data/id';
  return field.kind === 'relationship' ? `/data/relationships/${field.relationship.name}` : `/data/attributes/${field.attribute.name}`;
}

/**
 * A cell that did not convert. A function of its own, not a closure made per cell: tsx names
 * every function it creates (esbuild's keepNames), and a closure per cell of an import of
 * 100,000 rows was a million namings, 2% of the worker's CPU.
 */
function cellProblem(column: ColumnMapping, text: string, expected: string): CellProblem {
  return { header: column.header, fieldName: column.fieldName, detail: `"${text}" is not ${expected}`, pointer: pointerOf(column) };
}

/** A value of `type`, or a sentence saying what the text should have been. */
type Converted = { value: unknown } | { expected: string };

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);
const RECORD_ID = /^[1-9]\d{0,15}$/;

function scalar(type: Exclude<AttributeType, 'array'>, format: string | undefined, text: string): Converted {
  switch (type) {
    case 'integer': {
      const n = Number(text);
      return INTEGER.test(text) && Number.isSafeInteger(n) ? { value: n } : { expected: 'a whole number' };
    }
    case 'number': {
      const n = Number(text);
      return DECIMAL.test(text) && Number.isFinite(n) ? { value: n } : { expected: 'a number such as 12.5' };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return { value: true };
      if (FALSE.has(lower)) return { value: false };
      return { expected: 'true or false (also yes/no, 1/0)' };
    }
    case 'object': {
      try {
        const value: unknown = JSON.parse(text);
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { value };
      } catch {
        // Not JSON: said below.
      }
      return { expected: 'a JSON object' };
    }
    case 'string':
      if (format === 'date') return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? { value: text } : { expected: 'a date as YYYY-MM-DD' };
      if (format === 'date-time') {
        const ms = Date.parse(text.replace(' ', 'T'));
        return DATE_TIME.test(text) && !Number.isNaN(ms)
          ? { value: new Date(ms).toISOString() }
          : { expected: 'a date and time in ISO 8601 with a time zone, such as 2026-05-01T09:30:00Z' };
      }
      return { value: text };
  }
}

function convert(attribute: AttributeDescriptor, text: string): Converted {
  if (attribute.type !== 'array') return scalar(attribute.type, attribute.format, text);
  const items = text
    .split(LIST_SEPARATOR)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const values: unknown[] = [];
  for (const item of items) {
    const converted = scalar(attribute.itemType ?? 'string', undefined, item);
    if ('expected' in converted) return { expected: `a list of items separated by "${LIST_SEPARATOR}", each ${converted.expected}` };
    values.push(converted.value);
  }
  return { value: values };
}

/** Converts the mapped cells of one row (`values` in header order). */
export function rowValues(columns: readonly ColumnMapping[], values: readonly string[]): RowValues {
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, { data: { type: string; id: string } }> = {};
  const problems: CellProblem[] = [];
  let id: number | undefined;
  for (const column of columns) {
    const text = (values[column.index] ?? '').trim();
    if (text === '') continue;
    const { field } = column;
    if (field.kind === 'id' || field.kind === 'relationship') {
      if (!RECORD_ID.test(text)) {
        problems.push(cellProblem(column, text, 'a record id (a positive whole number)'));
        continue;
      }
      if (field.kind === 'id') id = Number(text);
      else relationships[field.relationship.name] = { data: { type: field.relationship.target, id: text } };
      continue;
    }
    const converted = convert(field.attribute, text);
    if ('expected' in converted) problems.push(cellProblem(column, text, converted.expected));
    else attributes[field.attribute.name] = converted.value;
  }
  return { ...(id !== undefined && { id }), attributes, relationships, problems };
}
