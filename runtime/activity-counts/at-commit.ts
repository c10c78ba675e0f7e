import type { WriteEffects, WrittenRecord } from '../engine/index.js';
import { gatherToCommit } from '../tenancy/index.js';

export type CountingHook = (written: readonly WrittenRecord[], effects: WriteEffects) => Promise<void>;

/**
 * Runs a counting hook once, at the end of the transaction (tenancy/before-commit.ts), on every
 * record the transaction wrote of its type, in the order written. Once, not per write: what it
 * reads then includes all the transaction's writes, so two writes reaching one prospect are
 * told apart from an earlier reach by the hook seeing both as its own. Where nothing can be
 * deferred, the hook runs now on this write.
 */
export async function countAtCommit(hook: CountingHook, written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const gathered = gatherToCommit(
    effects.tx,
    hook,
    (): WrittenRecord[] => [],
    (all) => hook(all, effects),
  );
  if (gathered) gathered.push(...written);
  else await hook(written, effects);
}
