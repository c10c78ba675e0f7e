import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** Organisation-defined custom objects, served by the same engine as standard resources. */

let api: TestApi;
let other: CreatedOrg;

const room = {
  name: 'room',
  displayName: 'Room',
  displayField: 'label',
  fields: [
    { name: 'label', type: 'string', required: true, filterable: true, sortable: true },
    { name: 'seats', type: 'integer', filterable: true, sortable: true },
  ],
};
const booking = {
  name: 'booking',
  displayName: 'Booking',
  displayField: 'title',
  fields: [
    { name: 'title', type: 'string', required: true, filterable: true, sortable: true },
    { name: 'startsAt', type: 'date-time', filterable: true, sortable: true },
    { name: 'paid', type: 'boolean', filterable: true },
    { name: 'amount', type: 'number', sortable: true },
  ],
  relationships: [
    { name: 'prospect', target: 'prospect' },
    { name: 'room', target: 'room' },
  ],
};

async function define(definition: unknown, token?: string) {
  return api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: definition } }, ...(token && { token }) });
}

async function createBooking(attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}, token?: string) {
  return api.request('POST', '/api/v2/customObjects/booking', { body: { data: { type: 'booking', attributes, relationships } }, ...(token && { token }) });
}

let roomDefinitionId: number;
let bookingDefinitionId: number;
let prospectId: number;
let accountId: number;
let roomId: number;

beforeAll(async () => {
  api = await startTestApi();
  other = await api.newOrg('Other');
  roomDefinitionId = (await define(room)).body.data.id;
  bookingDefinitionId = (await define(booking)).body.data.id;
  accountId = (await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Acme' } } } })).body.data.id;
  prospectId = (
    await api.request('POST', '/api/v2/prospects', {
      body: {
        data: { type: 'prospect', attributes: { firstName: 'Ada', lastName: 'Lovelace' }, relationships: { account: { data: { type: 'account', id: accountId } } } },
      },
    })
  ).body.data.id;
  roomId = (await api.request('POST', '/api/v2/customObjects/room', { body: { data: { type: 'room', attributes: { label: 'Blue', seats: 8 } } } })).body.data.id;
});
afterAll(async () => {
  await api?.close();
});

describe('definitions', () => {
  it('only admins manage definitions', async () => {
    const regular = await api.newUserToken(api.org.orgId, ['customObjects.all']);
    const response = await define({ ...room, name: 'desk' }, regular);
    expect(response.status).toBe(403);
    expect(response.body.errors[0].id).toBe('adminOnly');
  });

  it('refuses bad definitions with pointers', async () => {
    const cases: [unknown, string][] = [
      [{ ...room, name: 'prospect' }, '/data/attributes/name'],
      [{ ...room, name: 'customDuty' }, '/data/attributes/name'],
      [{ ...room, name: 'room' }, '/data/attributes/name'],
      [{ ...room, name: 'desk', fields: [{ name: 'label', type: 'money' }] }, '/data/attributes/fields/0/type'],
      [{ ...room, name: 'desk', displayField: 'nope' }, '/data/attributes/displayField'],
      [{ ...room, name: 'desk', relationships: [{ name: 'x', target: 'nothing' }] }, '/data/attributes/relationships/0/target'],
      [{ ...room, name: 'desk', fields: [...room.fields, { name: 'label', type: 'string' }] }, '/data/attributes/fields/2/name'],
    ];
    for (const [definition, pointer] of cases) {
      const response = await define(definition);
      expect(response.status, JSON.stringify(definition)).toBe(422);
      expect(response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    }
  });

  it('two orgs define the same name independently and see only their own', async () => {
    const theirs = await define(
      {
        ...room,
        fields: [
          { name: 'label', type: 'string' },
          { name: 'floor', type: 'integer' },
        ],
      },
      other.token,
    );
    expect(theirs.status).toBe(201);
    const listed = await api.request('GET', '/api/v2/customObjectDefinitions', { token: other.token });
    expect(listed.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(['room']);
    expect((await api.request('GET', `/api/v2/customObjects/room/${roomId}`, { token: other.token })).status).toBe(404);
    expect((await api.request('GET', '/api/v2/customObjects/booking', { token: other.token })).status).toBe(404);
  });
});

describe('records', () => {
  it('create, read, update, delete with createdAt/updatedAt', async () => {
    const created = await createBooking(
      { title: 'Kickoff', startsAt: '2026-12-01T09:00:00Z', paid: false, amount: 12.5 },
      {
        prospect: { data: { type: 'prospect', id: prospectId } },
        room: { data: { type: 'room', id: String(roomId) } },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({
      type: 'booking',
      attributes: { title: 'Kickoff', startsAt: '2026-12-01T09:00:00.000Z', paid: false, amount: 12.5 },
      relationships: { prospect: { data: { type: 'prospect', id: prospectId } }, room: { data: { type: 'room', id: roomId } } },
      links: { self: `${api.baseUrl}/api/v2/customObjects/booking/${id}` },
    });
    expect(created.body.data.attributes.createdAt).toMatch(/Z$/);
    const updated = await api.request('PATCH', `/api/v2/customObjects/booking/${id}`, { body: { data: { type: 'booking', id, attributes: { paid: true } } } });
    expect(updated.body.data.attributes).toMatchObject({ title: 'Kickoff', paid: true });
    expect((await api.request('DELETE', `/api/v2/customObjects/booking/${id}`)).status).toBe(204);
    expect((await api.request('GET', `/api/v2/customObjects/booking/${id}`)).status).toBe(404);
  });

  it('validates bodies against the definition', async () => {
    const missing = await createBooking({ paid: true });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/title');
    const wrong = await createBooking({ title: 'x', paid: 'yes', nope: 1 });
    expect(wrong.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual(['/data/attributes/nope', '/data/attributes/paid']);
    const missingTarget = await createBooking({ title: 'x' }, { prospect: { data: { type: 'prospect', id: 999999 } } });
    expect(missingTarget.status).toBe(422);
    expect(missingTarget.body.errors[0].source.pointer).toBe('/data/relationships/prospect');
    const wrongType = await api.request('POST', '/api/v2/customObjects/booking', { body: { data: { type: 'room', attributes: { title: 'x' } } } });
    expect(wrongType.status).toBe(409);
  });

  it('filters, sorts, pages, counts and sparse fieldsets', async () => {
    for (const [i, title] of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].entries()) {
      await createBooking({ title, startsAt: `2027-01-0${i + 1}T10:00:00Z`, paid: i % 2 === 0, amount: i }, { room: { data: { type: 'room', id: roomId } } });
    }
    const paid = await api.request('GET', '/api/v2/customObjects/booking?filter[paid]=true&sort=-title&count=true&fields[booking]=title');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data.map((b: { attributes: { title: string } }) => b.attributes.title)).toEqual(['Echo', 'Charlie', 'Alpha']);
    expect(paid.body.data[0].attributes).toEqual({ title: 'Echo' });
    expect(paid.body.meta).toEqual({ count: 3, count_truncated: false });
    const range = await api.request('GET', '/api/v2/customObjects/booking?filter[startsAt]=2027-01-02T00:00:00Z..2027-01-04T23:00:00Z&sort=startsAt');
    expect(range.body.data.map((b: { attributes: { title: string } }) => b.attributes.title)).toEqual(['Bravo', 'Charlie', 'Delta']);
    const titles: string[] = [];
    let next: string | undefined = '/api/v2/customObjects/booking?sort=amount&page[size]=2&filter[room][id]=' + roomId;
    while (next) {
      const page = await api.request('GET', next.replace(api.baseUrl, ''));
      titles.push(...page.body.data.map((b: { attributes: { title: string } }) => b.attributes.title));
      next = page.body.links.next;
    }
    expect(titles).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect((await api.request('GET', '/api/v2/customObjects/booking?filter[amount]=1')).status).toBe(400);
    expect((await api.request('GET', '/api/v2/customObjects/booking?sort=paid')).status).toBe(400);
  });

  it('filters by a related record: id always, name of a prospect, the display field of a custom object', async () => {
    await createBooking({ title: 'With Ada' }, { prospect: { data: { type: 'prospect', id: prospectId } }, room: { data: { type: 'room', id: roomId } } });
    const byName = await api.request('GET', '/api/v2/customObjects/booking?filter[prospect][name]=Ada Lovelace');
    expect(byName.body.data.map((b: { attributes: { title: string } }) => b.attributes.title)).toEqual(['With Ada']);
    const byLabel = await api.request('GET', '/api/v2/customObjects/booking?filter[room][label]=Blue&count=true');
    expect(byLabel.body.meta.count).toBeGreaterThan(1);
    expect((await api.request('GET', '/api/v2/customObjects/booking?filter[room][seats]=8')).status).toBe(400);
  });

  it('includes one level deep through custom relationships; further through standard ones', async () => {
    const listed = await api.request('GET', '/api/v2/customObjects/booking?filter[title]=With Ada&include=prospect.account,room');
    expect(listed.status).toBe(200);
    expect(listed.body.included.map((r: { type: string }) => r.type).sort()).toEqual(['account', 'prospect', 'room']);
    await api.request('PATCH', `/api/v2/customObjectDefinitions/${roomDefinitionId}`, {
      body: { data: { type: 'customObjectDefinition', id: roomDefinitionId, attributes: { relationships: [{ name: 'home', target: 'room' }] } } },
    });
    const deep = await api.request('GET', '/api/v2/customObjects/booking?include=room.home');
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].source).toEqual({ parameter: 'include' });
  });

  it('changes are events, and deleting a related record clears the relationship', async () => {
    const created = await createBooking({ title: 'Evented' }, { prospect: { data: { type: 'prospect', id: prospectId } } });
    const events = await api.request('GET', `/api/v2/events?filter[resourceType]=booking&filter[resourceId]=${created.body.data.id}`);
    expect(events.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['booking_created']);
    const prospect = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect' } } });
    const linked = await createBooking({ title: 'Orphan' }, { prospect: { data: { type: 'prospect', id: prospect.body.data.id } } });
    expect((await api.request('DELETE', `/api/v2/prospects/${prospect.body.data.id}`)).status).toBe(204);
    const after = await api.request('GET', `/api/v2/customObjects/booking/${linked.body.data.id}`);
    expect(after.body.data.relationships.prospect.data).toBeNull();
  });
});

describe('evolving a definition', () => {
  it('adding a field works at once; removing one drops its values; retyping starts it empty', async () => {
    const created = await createBooking({ title: 'Evolve', amount: 7 });
    const id = created.body.data.id;
    const patch = (attributes: Record<string, unknown>) =>
      api.request('PATCH', `/api/v2/customObjectDefinitions/${bookingDefinitionId}`, {
        body: { data: { type: 'customObjectDefinition', id: bookingDefinitionId, attributes } },
      });
    const added = await patch({ fields: [...booking.fields, { name: 'notes', type: 'string' }] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const noted = await api.request('PATCH', `/api/v2/customObjects/booking/${id}`, { body: { data: { type: 'booking', id, attributes: { notes: 'n' } } } });
    expect(noted.body.data.attributes).toMatchObject({ notes: 'n', amount: 7 });

    await patch({ fields: [...booking.fields.filter((f) => f.name !== 'amount'), { name: 'notes', type: 'string' }] });
    const removed = await api.request('GET', `/api/v2/customObjects/booking/${id}`);
    expect(removed.body.data.attributes).not.toHaveProperty('amount');
    await patch({ fields: [...booking.fields.filter((f) => f.name !== 'amount'), { name: 'notes', type: 'string' }, { name: 'amount', type: 'number' }] });
    expect((await api.request('GET', `/api/v2/customObjects/booking/${id}`)).body.data.attributes.amount).toBeNull();

    await patch({ fields: [...booking.fields.filter((f) => f.name !== 'paid'), { name: 'notes', type: 'string' }, { name: 'paid', type: 'string' }] });
    expect((await api.request('GET', `/api/v2/customObjects/booking/${id}`)).body.data.attributes.paid).toBeNull();
  });

  it('after a display field change, filters on the old field stop working', async () => {
    expect((await api.request('GET', '/api/v2/customObjects/booking?filter[room][label]=Blue')).status).toBe(200);
    const changed = await api.request('PATCH', `/api/v2/customObjectDefinitions/${roomDefinitionId}`, {
      body: {
        data: {
          type: 'customObjectDefinition',
          id: roomDefinitionId,
          attributes: { fields: [...room.fields, { name: 'code', type: 'string', filterable: true }], displayField: 'code' },
        },
      },
    });
    expect(changed.status).toBe(200);
    expect((await api.request('GET', '/api/v2/customObjects/booking?filter[room][label]=Blue')).status).toBe(400);
    expect((await api.request('GET', '/api/v2/customObjects/booking?filter[room][code]=X')).status).toBe(200);
  });
});

describe('to-many relationships', () => {
  it('are the other side of a to-one: links.related lists them, filter[rel][id] finds by them, writes are refused', async () => {
    const bad = await api.request('PATCH', `/api/v2/customObjectDefinitions/${roomDefinitionId}`, {
      body: {
        data: {
          type: 'customObjectDefinition',
          id: roomDefinitionId,
          attributes: { relationships: [{ name: 'bookings', target: 'booking', cardinality: 'toMany', inverse: 'nope' }] },
        },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/relationships/0/inverse');
    const good = await api.request('PATCH', `/api/v2/customObjectDefinitions/${roomDefinitionId}`, {
      body: {
        data: {
          type: 'customObjectDefinition',
          id: roomDefinitionId,
          attributes: {
            relationships: [
              { name: 'home', target: 'room' },
              { name: 'bookings', target: 'booking', cardinality: 'toMany', inverse: 'room' },
            ],
          },
        },
      },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const booked = await createBooking({ title: 'In the green room' }, { room: { data: { type: 'room', id: roomId } } });
    const theRoom = await api.request('GET', `/api/v2/customObjects/room/${roomId}`);
    const related: string = theRoom.body.data.relationships.bookings.links.related;
    expect(related).toBe(`${api.baseUrl}/api/v2/customObjects/booking?filter%5Broom%5D%5Bid%5D=${roomId}`);
    const listed = await api.request('GET', related.replace(api.baseUrl, '') + '&page[size]=1000');
    expect(listed.body.data.map((b: { id: number }) => b.id)).toContain(booked.body.data.id);
    const rooms = await api.request('GET', `/api/v2/customObjects/room?filter[bookings][id]=${booked.body.data.id}`);
    expect(rooms.body.data.map((r: { id: number }) => r.id)).toEqual([roomId]);
    const write = await api.request('PATCH', `/api/v2/customObjects/room/${roomId}`, {
      body: { data: { type: 'room', id: roomId, relationships: { bookings: { data: [{ type: 'booking', id: booked.body.data.id }] } } } },
    });
    expect(write.status).toBe(422);
    expect(write.body.errors[0].source.pointer).toBe('/data/relationships/bookings');
  });
});

describe('schema endpoint', () => {
  it('includes the caller custom objects with a token, omits them without', async () => {
    const anonymous = await api.request('GET', '/api/v2/schema', { token: null });
    expect(anonymous.body.definitions.booking).toBeUndefined();
    const own = await api.request('GET', '/api/v2/schema');
    expect(own.body.definitions.booking.definitions.title).toMatchObject({ type: 'string', filterable: true, sortable: true });
    expect(own.body.definitions.booking.definitions.room).toEqual({ data: true, links: true, $ref: '#/definitions/room' });
    expect(own.body.properties.booking).toEqual({ $ref: '#/definitions/booking' });
    const theirs = await api.request('GET', '/api/v2/schema', { token: other.token });
    expect(theirs.body.definitions.booking).toBeUndefined();
    expect(theirs.body.definitions.room.definitions.floor).toBeDefined();
  });

  it('is current immediately after a definition changes', async () => {
    await define({ name: 'ticket', displayField: 'subject', fields: [{ name: 'subject', type: 'string' }] });
    expect((await api.request('GET', '/api/v2/schema')).body.definitions.ticket).toBeDefined();
  });
});
