import { setImmediate } from 'node:timers/promises';

/**
 * Work over the many items of one tenant's request or file, cut into slices with a turn of the
 * event loop between them (issue #25): the process's other requests, timers and I/O run between
 * slices, so no tenant's large body or file holds them up for longer than one slice takes.
 */

/** Lets the event loop run whatever is waiting before going on. */
export function turnOfEventLoop(): Promise<void> {
  return setImmediate();
}

/** `map` of each item, in order, `size` items at a time with a turn of the event loop between. */
export async function mapInSlices<T, R>(items: readonly T[], size: number, map: (item: T, index: number) => R): Promise<R[]> {
  const results = new Array<R>(items.length);
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await turnOfEventLoop();
    const end = Math.min(start + size, items.length);
    for (let index = start; index < end; index++) results[index] = map(items[index]!, index);
  }
  return results;
}
