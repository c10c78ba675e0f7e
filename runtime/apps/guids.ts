/**
 * App GUIDs and install ids are made by randomUUID. Text of any other shape names no app and no
 * install, so it is answered before it reaches PostgreSQL, whose text cannot even hold some of
 * what a client may send (a NUL character is a database error, not a mismatch).
 */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isGuid(text: string): boolean {
  return GUID.test(text);
}
