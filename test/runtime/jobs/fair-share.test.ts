import { EventEmitter } from 'node:events';
import type { Job, WorkerEvents } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { fairShare, shareFlag } from '../../../runtime/jobs/fair-share.js';

// Only what fairShare reads of a job: its flags.
const job = (...keys: string[]) => ({ flags: Object.fromEntries(keys.map((key) => [shareFlag(key), true])) }) as unknown as Job;

function worker(concurrency: number) {
  const events: WorkerEvents = new EventEmitter();
  const share = fairShare(concurrency, events);
  const start = (running: Job) => events.emit('job:start', { job: running } as never);
  const complete = (running: Job) => events.emit('job:complete', { job: running } as never);
  return { share, start, complete };
}

describe('fairShare', () => {
  it.each([
    [1, 1],
    [2, 1],
    [4, 3],
    [10, 9],
  ])('at concurrency %i one flag takes at most %i slots', (concurrency, limit) => {
    expect(worker(concurrency).share.limit).toBe(limit);
  });

  it('forbids a flag while its jobs hold all but one slot, and no longer once one ends', () => {
    const { share, start, complete } = worker(4);
    const deliveries = [job('webhook:1'), job('webhook:1'), job('webhook:1')];
    start(deliveries[0]!);
    start(deliveries[1]!);
    start(job('webhook:2'));
    start({ flags: null } as unknown as Job);
    expect(share.forbiddenFlags()).toEqual([]);
    start(deliveries[2]!);
    expect(share.forbiddenFlags()).toEqual([shareFlag('webhook:1')]);
    complete(deliveries[1]!);
    expect(share.forbiddenFlags()).toEqual([]);
  });

  it('ignores flags that are not share flags', () => {
    const { share, start } = worker(2);
    start({ flags: { other: true } } as unknown as Job);
    start({ flags: { other: true } } as unknown as Job);
    expect(share.forbiddenFlags()).toEqual([]);
  });
});
