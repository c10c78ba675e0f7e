import type { WriteEffects, WrittenRecord } from '../engine/index.js';
import { deferToCommit, type Transaction } from '../tenancy/index.js';

export type CountingHook = (written: readonly WrittenRecord[], effects: WriteEffects) => Promise<void>;

/**
 * Runs a counting hook once, at the end of the transaction (tenancy/before-commit.ts), on every
 * record the transaction wrote of its type, in the order written. Once, not per write: what it
 * reads then includes all the transaction's writes, so two writes reaching one prospect are
 * told apart from an earlier reach by the hook seeing both as its own. Where nothing can be
 * deferred, the hook runs now on this write.
 */
const pending = new WeakMap<Transaction, Map<CountingHook, WrittenRecord[]>>();

export async function countAtCommit(hook: CountingHook, written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const waiting = pending.get(effects.tx)?.get(hook);
  if (waiting) {
    waiting.push(...written);
    return;
  }
  const all = [...written];
  const deferred = deferToCommit(effects.tx, async () => {
    pending.get(effects.tx)?.delete(hook);
    await hook(all, effects);
  });
  if (!deferred) return hook(written, effects);
  const hooks = pending.get(effects.tx) ?? new Map<CountingHook, WrittenRecord[]>();
  pending.set(effects.tx, hooks);
  hooks.set(hook, all);
}
