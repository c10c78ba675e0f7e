import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * A polymorphic to-one: a content category membership's `content` is a sequence, snippet or
 * template (issue #27), written and rendered as {type, id}, checked against the org's records,
 * included and followed like any to-one, and cleared when the record it names is deleted.
 */

let api: TestApi;
let category: number;

beforeAll(async () => {
  api = await startTestApi();
  category = await create('contentCategories', 'contentCategory', { name: 'Onboarding' });
});
afterAll(async () => {
  await api?.close();
});

async function create(collection: string, type: string, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}): Promise<number> {
  const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes, relationships } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

function membershipBody(content: unknown) {
  return {
    data: {
      type: 'contentCategoryMembership',
      relationships: { contentCategory: { data: { type: 'contentCategory', id: category } }, content: { data: content } },
    },
  };
}

async function member(content: { type: string; id: number }): Promise<number> {
  const response = await api.request('POST', '/api/v2/contentCategoryMemberships', { body: membershipBody(content) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

async function contentOf(membership: number): Promise<unknown> {
  const response = await api.request('GET', `/api/v2/contentCategoryMemberships/${membership}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.relationships.content;
}

describe('contentCategoryMembership.content', () => {
  it('is created naming a snippet or a template, and read back as {type, id}', async () => {
    const snippet = await create('snippets', 'snippet', { name: 'Greeting' });
    const template = await create('templates', 'template', { name: 'Intro' });
    const response = await api.request('POST', '/api/v2/contentCategoryMemberships', { body: membershipBody({ type: 'snippet', id: String(snippet) }) });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.relationships.content).toEqual({ data: { type: 'snippet', id: snippet } });
    expect(await contentOf(response.body.data.id)).toEqual({ data: { type: 'snippet', id: snippet } });
    expect(await contentOf(await member({ type: 'template', id: template }))).toEqual({ data: { type: 'template', id: template } });
  });

  it('is refused with a 422 at the identifier when its type is none of sequence, snippet, template', async () => {
    const prospect = await create('prospects', 'prospect', { firstName: 'Ada' });
    const response = await api.request('POST', '/api/v2/contentCategoryMemberships', { body: membershipBody({ type: 'prospect', id: prospect }) });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      {
        id: 'validationError',
        status: '422',
        title: 'Validation Error',
        detail: 'content must be a sequence, snippet, template, not a prospect',
        source: { pointer: '/data/relationships/content/data' },
      },
    ]);
  });

  it('is refused with a 422 at the identifier when the org has no such record, even if another org has', async () => {
    const other = await api.newOrg('Other');
    const theirs = await api.request('POST', '/api/v2/snippets', { token: other.token, body: { data: { type: 'snippet', attributes: { name: 'Theirs' } } } });
    expect(theirs.status).toBe(201);
    for (const id of [theirs.body.data.id, 999999]) {
      const response = await api.request('POST', '/api/v2/contentCategoryMemberships', { body: membershipBody({ type: 'snippet', id }) });
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.errors).toEqual([
        {
          id: 'validationError',
          status: '422',
          title: 'Validation Error',
          detail: 'content refers to a snippet that does not exist',
          source: { pointer: '/data/relationships/content/data' },
        },
      ]);
    }
  });

  it('is included with include=content and followed at /content, whatever its type', async () => {
    const snippet = await create('snippets', 'snippet', { name: 'Sign-off' });
    const template = await create('templates', 'template', { name: 'Follow-up' });
    const ids = [await member({ type: 'snippet', id: snippet }), await member({ type: 'template', id: template })];
    const listed = await api.request('GET', `/api/v2/contentCategoryMemberships?filter[id]=${ids.join(',')}&include=content`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const included = listed.body.included.map((r: { type: string; id: number }) => `${r.type}:${r.id}`).sort();
    expect(included).toEqual([`snippet:${snippet}`, `template:${template}`]);

    const related = await api.request('GET', `/api/v2/contentCategoryMemberships/${ids[1]}/content`);
    expect(related.status, JSON.stringify(related.body)).toBe(200);
    expect(related.body.data).toMatchObject({ type: 'template', id: template, attributes: { name: 'Follow-up' } });
  });

  it('cannot be used as a filter, as in the reference', async () => {
    const response = await api.request('GET', '/api/v2/contentCategoryMemberships?filter[content][id]=1');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'filter[content][id]' });
  });

  it('is cleared when the record it names is deleted, and only for that type', async () => {
    const snippet = await create('snippets', 'snippet', { name: 'Doomed' });
    // A template with the snippet's id: deleting the snippet must not clear a membership of it.
    let template = await create('templates', 'template', { name: 'Twin' });
    while (template < snippet) template = await create('templates', 'template', { name: 'Twin' });
    let twin = snippet;
    while (twin < template) twin = await create('snippets', 'snippet', { name: 'Doomed' });
    expect(twin).toBe(template);
    const ofSnippet = await member({ type: 'snippet', id: twin });
    const ofTemplate = await member({ type: 'template', id: template });

    const deleted = await api.request('DELETE', `/api/v2/snippets/${twin}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expect(await contentOf(ofSnippet)).toEqual({ data: null });
    expect(await contentOf(ofTemplate)).toEqual({ data: { type: 'template', id: template } });
  });
});
