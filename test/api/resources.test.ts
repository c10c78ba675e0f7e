import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import type { ResourceDescriptor } from '../../runtime/model/descriptor.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { createSampleRecord, sampleValue, writableAttributes } from '../helpers/samples.js';

/**
 * One table-driven pass over every resource in schema/: create, read, list, update and delete
 * through HTTP wherever the resource allows it, and the writes it must refuse.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const all = [...descriptors.values()];

/** Writable attributes that responses show: all but the write-only ones. */
function renderedWritable(d: ResourceDescriptor) {
  return writableAttributes(d).filter((a) => !a.writeOnly);
}

/** Creates a record of `type` (and whatever it requires first) and returns its id. */
const createRecord = (type: string, variant = 0) => createSampleRecord(api, type, variant);

describe.each(all.map((d) => [d.type, d] as const))('%s', (type, d) => {
  it.runIf(d.operations.create)('creates, reads and lists a record', async () => {
    const id = await createRecord(type, 1);
    const got = await api.request('GET', `/api/v2/${d.collection}/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ type, id, links: { self: `${api.baseUrl}/api/v2/${d.collection}/${id}` } });
    for (const a of renderedWritable(d)) expect(got.body.data.attributes[a.name], a.name).toEqual(sampleValue(type, a, 1));
    for (const a of d.attributes) {
      if (a.writeOnly) expect(Object.keys(got.body.data.attributes), `${a.name} is write-only`).not.toContain(a.name);
      else expect(Object.keys(got.body.data.attributes)).toContain(a.name);
    }
    expect(got.body.data.attributes.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const listed = await api.request('GET', `/api/v2/${d.collection}?page[size]=1000`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { id: number }) => r.id)).toContain(id);
  });

  // A resource updated but never created through the API (orgSetting) has no record to update here: test/api/org-records.test.ts.
  it.runIf(d.operations.create && d.operations.update && renderedWritable(d).length > 0)('updates only the attributes sent', async () => {
    const id = await createRecord(type, 0);
    const [changed, ...others] = renderedWritable(d);
    const response = await api.request('PATCH', `/api/v2/${d.collection}/${id}`, {
      body: { data: { type, id: String(id), attributes: { [changed!.name]: sampleValue(type, changed!, 1) } } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes[changed!.name]).toEqual(sampleValue(type, changed!, 1));
    for (const a of others) expect(response.body.data.attributes[a.name], a.name).toEqual(sampleValue(type, a, 0));
  });

  it.runIf(d.operations.delete)('deletes a record', async () => {
    const id = await createRecord(type);
    const deleted = await api.request('DELETE', `/api/v2/${d.collection}/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await api.request('GET', `/api/v2/${d.collection}/${id}`)).status).toBe(404);
  });

  it.runIf(!d.operations.create && d.operations.list)('refuses creates with 405', async () => {
    const response = await api.request('POST', `/api/v2/${d.collection}`, { body: { data: { type } } });
    expect(response.status).toBe(405);
    expect(response.body.errors[0].id).toBe('methodNotAllowed');
  });

  it.runIf(!d.operations.create && !d.operations.list)('has no collection path: creates are 404', async () => {
    const response = await api.request('POST', `/api/v2/${d.collection}`, { body: { data: { type } } });
    expect(response.status).toBe(404);
    expect(response.body.errors[0].id).toBe('resourceNotFound');
  });

  it.runIf(d.operations.list)('lists', async () => {
    const response = await api.request('GET', `/api/v2/${d.collection}`);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body.data)).toBe(true);
    expect(response.body.links.first).toBe(`${api.baseUrl}/api/v2/${d.collection}`);
  });

  const readOnly = d.attributes.filter((a) => a.readOnly);
  it.runIf(d.operations.create && readOnly.length > 0)('refuses writes to read-only attributes', async () => {
    for (const a of readOnly) {
      const response = await api.request('POST', `/api/v2/${d.collection}`, {
        body: { data: { type, attributes: { [a.name]: sampleValue(type, a, 0) } } },
      });
      expect(response.status, a.name).toBe(422);
      expect(response.body.errors[0]).toMatchObject({ id: 'validationError', source: { pointer: `/data/attributes/${a.name}` } });
      expect(response.body.errors[0].detail).toContain('read-only');
    }
  });

  const forbiddenOnCreate = d.relationships.filter((r) => r.kind === 'toMany' || !r.writableOnCreate);
  it.runIf(d.operations.create && forbiddenOnCreate.length > 0)('refuses relationship writes it does not allow', async () => {
    for (const rel of forbiddenOnCreate) {
      const target = rel.kind === 'polymorphicToOne' ? rel.targets[0] : rel.target;
      const data = rel.kind === 'toMany' ? [{ type: target, id: 1 }] : { type: target, id: 1 };
      const response = await api.request('POST', `/api/v2/${d.collection}`, {
        body: { data: { type, relationships: { [rel.name]: { data } } } },
      });
      expect(response.status, rel.name).toBe(422);
      expect(response.body.errors[0].source.pointer).toBe(`/data/relationships/${rel.name}`);
    }
  });
});
