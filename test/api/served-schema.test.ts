import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParamSchema } from '../../runtime/model/descriptor.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { requiredActionParams } from '../helpers/samples.js';

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
  requiredParams?: string[];
  'x-paramSchemas'?: Record<string, ParamSchema>;
}

async function actionLinks(): Promise<Link[]> {
  const schema = (await api.request('GET', '/api/v2/schema')).body;
  return Object.values(schema.definitions as Record<string, { links?: Link[] }>)
    .flatMap((d) => d.links ?? [])
    .filter((link) => link.href.includes('/actions/'));
}

describe('action links', () => {
  it('every advertised action reaches its handler: an unknown id is "no such record", never "no such action"', async () => {
    const actions = (await actionLinks()).filter((link) => link.href.includes('/{:id}/'));
    expect(actions.map((a) => a.href)).toContain('/api/v2/tasks/{:id}/actions/snooze');
    for (const action of actions) {
      // Required parameters, with values their served x-paramSchemas accept, so that only the id is wrong.
      const query = requiredActionParams({ requiredParams: action.requiredParams ?? [], paramSchemas: action['x-paramSchemas'] ?? {} });
      const path = `${action.href.replace('{:id}', '987654')}${query ? `?${query}` : ''}`;
      const response = await api.request(action.method, path);
      expect(response.status, path).toBe(404);
      expect(response.body.errors[0].detail, path).toMatch(/^No \w+ with id 987654 exists$/);
    }
  });
});

describe('collection action links', () => {
  it('are the bulk actions, bulk upserts, upload steps and imports, each answered by its own route: an unknown parameter is refused by it, never "no such action"', async () => {
    const actions = (await actionLinks()).filter((link) => !link.href.includes('{:id}'));
    expect(actions.map((a) => a.href)).toEqual(
      expect.arrayContaining([
        '/api/v2/batches/actions/prospectsBulkModify',
        '/api/v2/imports/actions/bulkUpsert',
        '/api/v2/imports/actions/generateUploadLink',
        '/api/v2/imports/actions/validateUpload',
        '/api/v2/imports/actions/prospectsImport',
        '/api/v2/imports/actions/accountsImport',
      ]),
    );
    expect(actions).toHaveLength(29);
    expect(actions.find((a) => a.href.endsWith('/validateUpload'))).toMatchObject({ rel: 'validateUpload', requiredParams: ['hash', 'storageKey'] });
    expect(actions.find((a) => a.href.endsWith('/generateUploadLink'))).toMatchObject({
      rel: 'generateUploadLink',
      targetSchema: { definitions: { storageKey: { type: 'string' }, uploadUrl: { type: 'string' }, uploadHeaders: { type: 'object' } } },
    });
    expect(actions.find((a) => a.href.endsWith('/customObjectBulkDelete'))).toMatchObject({ rel: 'customObjectBulkDelete', requiredParams: ['objectName'] });
    for (const action of actions) {
      expect(action.method).toBe('POST');
      const response = await api.request('POST', `${action.href}?notAParameter=1`);
      expect(response.status, action.href).toBe(400);
      expect(response.body.errors[0].source, action.href).toEqual({ parameter: 'notAParameter' });
    }
  });

  it('an undeclared collection action is not found, whatever the method', async () => {
    for (const method of ['POST', 'GET']) {
      const response = await api.request(method, '/api/v2/batches/actions/prospectsExplode');
      expect(response.status, method).toBe(404);
      expect(response.body.errors[0].id, method).toBe('resourceNotFound');
    }
    const engine = await api.request('POST', '/api/v2/imports/actions/csvImport');
    expect(engine.status).toBe(404);
    expect(engine.body.errors[0].detail).toBe('import has no action csvImport');
  });

  it('a declared one answers another method with 405 and Allow: POST', async () => {
    const response = await api.request('GET', '/api/v2/batches/actions/prospectsBulkModify');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
