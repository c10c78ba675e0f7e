import { fullFormats } from 'ajv-formats/dist/formats.js';
import { UsageError } from './command.js';

/** Checks of option values that several commands share; each names the option it refuses. */

export function scopeList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function requiredString(name: string, text: string | undefined): string {
  if (text === undefined || text === '') throw new UsageError(`--${name} is required`);
  return text;
}

/**
 * An e-mail address as the API's validators take one (Ajv's "email" format, which the user
 * schema's `format: email` compiles to): the operator is told here rather than left with a
 * user no one can sign in as.
 */
export function emailAddress(name: string, text: string | undefined): string {
  const address = requiredString(name, text);
  if (!(fullFormats.email as RegExp).test(address)) throw new UsageError(`--${name} must be an e-mail address (name@example.com), not "${address}"`);
  return address;
}

export function positiveInteger(name: string, text: string | undefined): number {
  if (text === undefined || !/^[1-9][0-9]*$/.test(text)) throw new UsageError(`--${name} must be a positive integer`);
  return Number(text);
}

/** --org, as every command about one org takes it. */
export const ORG_OPTION = { type: 'string', value: 'ID', help: 'the org, by id (cadence org list names them)' } as const;
