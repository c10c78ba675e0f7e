import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** A favorite names its record by targetType and targetId: that record must exist in the org. */

let api: TestApi;
let other: CreatedOrg;
let prospectId: number;
let othersProspectId: number;
let roomId: number;

const favorite = (targetType: unknown, targetId: unknown) => ({ data: { type: 'favorite', attributes: { targetType, targetId } } });
const createProspect = async (token: string) =>
  (await api.request('POST', '/api/v2/prospects', { token, body: { data: { type: 'prospect', attributes: { firstName: 'Ada' } } } })).body.data.id as number;

beforeAll(async () => {
  api = await startTestApi();
  other = await api.newOrg('Other');
  prospectId = await createProspect(api.org.token);
  othersProspectId = await createProspect(other.token);
  const room = { name: 'room', displayName: 'Room', displayField: 'label', fields: [{ name: 'label', type: 'string' }] };
  await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: room } } });
  roomId = (await api.request('POST', '/api/v2/customObjects/room', { body: { data: { type: 'room', attributes: { label: 'Blue' } } } })).body.data.id;
});
afterAll(async () => {
  await api?.close();
});

describe('creating a favorite', () => {
  it('201 for a record of the org, standard or custom', async () => {
    for (const [type, id] of [
      ['prospect', prospectId],
      ['room', roomId],
    ] as const) {
      const response = await api.request('POST', '/api/v2/favorites', { body: favorite(type, id) });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.data.attributes).toMatchObject({ targetType: type, targetId: id });
    }
  });

  // Targets are functions: the records they name are made in beforeAll.
  const refusals: [string, () => [string, number], string][] = [
    ['an id no record has', () => ['prospect', prospectId + 1000], '/data/attributes/targetId'],
    ["another org's record", () => ['prospect', othersProspectId], '/data/attributes/targetId'],
    ['a negative id', () => ['prospect', -1], '/data/attributes/targetId'],
    ['a custom record id no record has', () => ['room', roomId + 1000], '/data/attributes/targetId'],
    ['a type that does not exist', () => ['spaceship', prospectId], '/data/attributes/targetType'],
  ];
  it.each(refusals)('422 for %s', async (_name, target, pointer) => {
    const [type, id] = target();
    const detail = pointer.endsWith('targetId') ? `No ${type} with id ${id} exists` : `"${type}" is not a resource type`;
    const before = (await api.request('GET', '/api/v2/favorites')).body.data.length;
    const response = await api.request('POST', '/api/v2/favorites', { body: favorite(type, id) });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ id: 'validationError', status: '422', title: 'Validation Error', detail, source: { pointer } }]);
    expect((await api.request('GET', '/api/v2/favorites')).body.data).toHaveLength(before);
  });

  it('a custom object of another org is not a type of this one', async () => {
    const response = await api.request('POST', '/api/v2/favorites', { token: other.token, body: favorite('room', roomId) });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source).toEqual({ pointer: '/data/attributes/targetType' });
  });
});
