import { describe, expect, it } from 'vitest';
import { AdminError } from '../../../runtime/operator/index.js';
import { clockRequest, parseDuration } from '../../../runtime/sandbox/clock-command.js';
import { orgOfPayload } from '../../../runtime/sandbox/org-time-tasks.js';
import { orgNowSql, orgTimeClock, orgTimeOffsetMs, realInstantOf, runInOrgTime } from '../../../runtime/tenancy/org-time.js';

describe('parseDuration (cadence clock advance --by)', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['2h', 7200],
    ['1d', 86_400],
    ['3650d', 315_360_000],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '1', '0s', '01m', '1.5h', '-1d', '1w', '1 d', '1D', '3651d'])('refuses %j', (text) => {
    expect(() => parseDuration(text)).toThrow(AdminError);
  });
});

describe('clockRequest', () => {
  it('refuses outside sandbox mode before anything else', () => {
    expect(() => clockRequest('clock show', { org: 'x', by: undefined }, false)).toThrow(/only in a sandbox: set CADENCE_SANDBOX=true/);
  });

  it('reads show and advance', () => {
    expect(clockRequest('clock show', { org: '7', by: undefined }, true)).toEqual({ orgId: 7 });
    expect(clockRequest('clock advance', { org: '7', by: '2h' }, true)).toEqual({ orgId: 7, advanceSeconds: 7200 });
  });
});

describe('orgOfPayload', () => {
  it.each([
    [{ orgId: 3, stateId: 1 }, 3],
    [[{ orgId: 3 }, { orgId: 3 }], 3],
    [[{ orgId: 3 }, { orgId: 4 }], undefined],
    [{ orgId: '3' }, undefined],
    [{}, undefined],
    [null, undefined],
    [[], undefined],
  ])('%j names org %s', (payload, orgId) => {
    expect(orgOfPayload(payload)).toBe(orgId);
  });
});

describe("an org's time", () => {
  const real = () => new Date('2026-01-01T00:00:00.000Z');

  it('is real time outside any org, and the org offset inside', async () => {
    const clock = orgTimeClock(real);
    expect(clock().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(orgNowSql()).toBe('now()');
    await runInOrgTime({ orgId: 1, offsetMs: 86_400_000 }, async () => {
      await Promise.resolve();
      expect(orgTimeOffsetMs()).toBe(86_400_000);
      expect(clock().toISOString()).toBe('2026-01-02T00:00:00.000Z');
      expect(realInstantOf(new Date('2026-01-03T00:00:00.000Z')).toISOString()).toBe('2026-01-02T00:00:00.000Z');
      expect(orgNowSql()).toBe("(now() + interval '86400000 milliseconds')");
    });
    expect(orgTimeOffsetMs()).toBe(0);
  });
});
