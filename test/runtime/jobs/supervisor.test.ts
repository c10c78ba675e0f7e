import { expect, it } from 'vitest';
import { nextRestartDelay, type RestartPolicy } from '../../../runtime/jobs/supervisor.js';

const policy: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 10_000, resetAfterMs: 60_000 };

it.each([
  { previous: undefined, ranMs: 10, want: 500, why: 'the first restart' },
  { previous: 500, ranMs: 10, want: 1000, why: 'a crash soon after a restart doubles the wait' },
  { previous: 8000, ranMs: 59_999, want: 10_000, why: 'never more than the maximum' },
  { previous: 10_000, ranMs: 10, want: 10_000, why: 'a crash loop waits the maximum' },
  { previous: 10_000, ranMs: 60_000, want: 500, why: 'a good run starts over' },
])('nextRestartDelay: $why', ({ previous, ranMs, want }) => {
  expect(nextRestartDelay(policy, previous, ranMs)).toBe(want);
});
