import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** GET /api/v2/schema advertises what clients can call, and nothing they cannot. */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

interface Link {
  href: string;
  rel: string;
  method: string;
}

describe('action links', () => {
  it('every advertised action reaches its handler: an unknown id is "no such record", never "no such action"', async () => {
    const schema = (await api.request('GET', '/api/v2/schema')).body;
    const actions = Object.values(schema.definitions as Record<string, { links?: Link[] }>)
      .flatMap((d) => d.links ?? [])
      .filter((link) => link.href.includes('/actions/'));
    expect(actions.map((a) => a.href)).toContain('/api/v2/tasks/{:id}/actions/snooze');
    for (const action of actions) {
      const path = action.href.replace('{:id}', '987654');
      const response = await api.request(action.method, path);
      expect(response.status, path).toBe(404);
      expect(response.body.errors[0].detail, path).toMatch(/^No \w+ with id 987654 exists$/);
    }
  });
});
