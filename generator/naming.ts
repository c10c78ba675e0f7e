/** Name conversions shared by every emitter, so a column is spelled the same everywhere. */

/** `sequenceState` -> `sequence_state`, `addressStreet2` -> `address_street2`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** `sequenceState` -> `SequenceState`. */
export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
