import { forbidden } from '../jsonapi/index.js';

export type Access = 'read' | 'write' | 'delete';

/**
 * Whether granted scopes allow `access` on resources with scope stem `stem`. `<stem>.all`
 * allows everything; otherwise the exact scope is needed.
 */
export function allows(scopes: ReadonlySet<string>, stem: string, access: Access): boolean {
  return scopes.has(`${stem}.all`) || scopes.has(`${stem}.${access}`);
}

export function requireScope(scopes: ReadonlySet<string>, stem: string, access: Access): void {
  if (!allows(scopes, stem, access)) {
    throw forbidden('insufficientScope', `This request needs the scope ${stem}.${access} (or ${stem}.all)`);
  }
}

/** Every scope name the resources define: the stems times the four variants. */
export function allScopes(stems: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const stem of stems) for (const v of ['read', 'write', 'delete', 'all']) names.add(`${stem}.${v}`);
  return [...names].sort();
}
