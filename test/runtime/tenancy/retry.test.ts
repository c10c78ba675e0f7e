import { describe, expect, it } from 'vitest';
import { retryingOnConflict } from '../../../runtime/tenancy/index.js';

/** Transactions PostgreSQL aborted for a deadlock or serialization conflict are run again; nothing else is. */
describe('retryingOnConflict', () => {
  const conflict = (code: string) => Object.assign(new Error(`aborted ${code}`), { code });

  it('runs a transaction aborted for a deadlock or a serialization conflict again', async () => {
    for (const code of ['40P01', '40001']) {
      let runs = 0;
      const result = await retryingOnConflict(async () => {
        runs++;
        if (runs < 3) throw conflict(code);
        return 'done';
      });
      expect([result, runs]).toEqual(['done', 3]);
    }
  });

  it('gives up after the attempts given, with the last error', async () => {
    let runs = 0;
    await expect(
      retryingOnConflict(async () => {
        runs++;
        throw conflict('40P01');
      }, 2),
    ).rejects.toThrow('aborted 40P01');
    expect(runs).toBe(2);
  });

  it('never runs again what failed for another reason', async () => {
    let runs = 0;
    await expect(
      retryingOnConflict(async () => {
        runs++;
        throw conflict('23505');
      }),
    ).rejects.toThrow('aborted 23505');
    expect(runs).toBe(1);
  });
});
