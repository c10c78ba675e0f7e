import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_DEFAULT_CUTOFF, COUNT_DEFAULT_SWITCH, countsByDefault } from '../../runtime/query/count.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * SPEC.md's Versioning rule 3: without `count`, a collection query counts only for apps
 * registered before 2024-10-13, and only until those are switched on 2025-02-12. User tokens
 * never count by default. App tokens arrive with server-to-server access, so over HTTP this
 * covers user tokens under a clock on either side of the switch; the rule itself is a table.
 */

const at = (iso: string) => new Date(iso);
const ms = (date: Date, delta: number) => new Date(date.getTime() + delta);

describe('countsByDefault(appRegisteredAt, now)', () => {
  it('pins the dates of SPEC.md', () => {
    expect(COUNT_DEFAULT_CUTOFF.toISOString()).toBe('2024-10-13T00:00:00.000Z');
    expect(COUNT_DEFAULT_SWITCH.toISOString()).toBe('2025-02-12T00:00:00.000Z');
  });

  const beforeSwitch = ms(COUNT_DEFAULT_SWITCH, -1);
  const atSwitch = COUNT_DEFAULT_SWITCH;
  it.each([
    // registered                          now                              counts
    ['long before the cutoff', at('2020-01-01T00:00:00Z'), at('2024-01-01T00:00:00Z'), true],
    ['the last moment before the cutoff', ms(COUNT_DEFAULT_CUTOFF, -1), beforeSwitch, true],
    ['at the cutoff', COUNT_DEFAULT_CUTOFF, beforeSwitch, false],
    ['after the cutoff', ms(COUNT_DEFAULT_CUTOFF, 1), at('2024-11-01T00:00:00Z'), false],
    ['before the cutoff, at the switch', ms(COUNT_DEFAULT_CUTOFF, -1), atSwitch, false],
    ['before the cutoff, after the switch', at('2020-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'), false],
    ['after the cutoff, after the switch', at('2024-12-01T00:00:00Z'), at('2026-01-01T00:00:00Z'), false],
    ['a user token before the switch', null, at('2024-01-01T00:00:00Z'), false],
    ['a user token after the switch', null, at('2026-01-01T00:00:00Z'), false],
  ] as const)('an app registered %s: %s / %s counts %s', (_, registered, now, counts) => {
    expect(countsByDefault(registered, now)).toBe(counts);
  });
});

describe('count over HTTP with a user token', () => {
  // Before the switch, when old apps still count by default: a user token must not.
  const clocks = [at('2024-11-01T12:00:00Z'), at('2026-01-01T12:00:00Z')];
  const apis: TestApi[] = [];

  beforeAll(async () => {
    for (const now of clocks) {
      const api = await startTestApi({ clock: () => now });
      for (const firstName of ['Ada', 'Alan', 'Grace']) {
        const response = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName } } } });
        expect(response.status).toBe(201);
      }
      apis.push(api);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.close()));
  });

  it.each(clocks.map((now, i) => [now.toISOString(), i] as const))('at %s', async (_, i) => {
    const api = apis[i]!;
    const meta = async (query: string) => {
      const response = await api.request('GET', `/api/v2/prospects?page[size]=1${query}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.meta;
    };
    expect(await meta('')).toEqual({ count: null });
    expect(await meta('&count=false')).toEqual({ count: null });
    expect(await meta('&count=true')).toEqual({ count: 3, count_truncated: false });
    expect(await meta('&count=true&filter[firstName]=Ada,Grace')).toEqual({ count: 2, count_truncated: false });
    expect(await meta('&count=true&filter[firstName]=nobody')).toEqual({ count: 0, count_truncated: false });
  });
});
