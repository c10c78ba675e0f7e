/**
 * Orders strings by code point. localeCompare would make the output depend on the machine's
 * locale, and generated files must be the same bytes everywhere.
 */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
