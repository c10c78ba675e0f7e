import { describe, expect, it } from 'vitest';
import { mergedByKey, type JobSpec } from '../../../runtime/jobs/enqueue.js';

/**
 * A transaction's keyed jobs are added together at its end (runtime/jobs/enqueue.ts), and
 * graphile-worker's add_jobs takes each key once per call: the specs of one key are merged as
 * adding them one after another would have left the job.
 */
describe('mergedByKey', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

  it('keeps one spec per key, in the order keys came first, the later replacing the earlier', () => {
    const jobs: JobSpec[] = [
      { task: 'step', payload: { orgId: 1, dueAt: 'a' }, jobKey: 'step:1:a', runAt: at(5) },
      { task: 'send', payload: { orgId: 1 }, jobKey: 'send:1:20', runAt: at(20) },
      { task: 'chunk', payload: { first: 10001 }, jobKey: 'chunk:1:10001' },
      { task: 'send', payload: { orgId: 1, second: true }, jobKey: 'send:1:20', runAt: at(21), priority: 5 },
      { task: 'chunk', payload: { first: 9001 }, jobKey: 'chunk:1:9001' },
    ];
    expect(mergedByKey(jobs)).toEqual([
      { task: 'step', payload: { orgId: 1, dueAt: 'a' }, jobKey: 'step:1:a', runAt: at(5) },
      { task: 'send', payload: { orgId: 1, second: true }, jobKey: 'send:1:20', runAt: at(21), priority: 5 },
      { task: 'chunk', payload: { first: 10001 }, jobKey: 'chunk:1:10001' },
      { task: 'chunk', payload: { first: 9001 }, jobKey: 'chunk:1:9001' },
    ]);
  });

  it("adds up a batch job's items", () => {
    const jobs: JobSpec[] = [
      { task: 'deliver', payload: [{ id: 1 }], jobKey: 'deliver:7' },
      { task: 'deliver', payload: [{ id: 2 }, { id: 3 }], jobKey: 'deliver:7' },
    ];
    expect(mergedByKey(jobs)).toEqual([{ task: 'deliver', payload: [{ id: 1 }, { id: 2 }, { id: 3 }], jobKey: 'deliver:7' }]);
  });

  it('keeps the first run-at of a job that preserves its run-at', () => {
    const jobs: JobSpec[] = [
      { task: 'fold', payload: { orgId: 1 }, jobKey: 'fold:1', runAt: at(1), preserveRunAt: true },
      { task: 'fold', payload: { orgId: 1 }, jobKey: 'fold:1', runAt: at(9), preserveRunAt: true },
    ];
    expect(mergedByKey(jobs)).toEqual([{ task: 'fold', payload: { orgId: 1 }, jobKey: 'fold:1', runAt: at(1), preserveRunAt: true }]);
  });
});
