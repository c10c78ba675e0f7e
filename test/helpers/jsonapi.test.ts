import { describe, expect, it } from 'vitest';
import { assertJsonApiDocument } from './jsonapi.js';

describe('assertJsonApiDocument', () => {
  it('accepts a resource with a string id', () => {
    expect(() =>
      assertJsonApiDocument({
        data: {
          type: 'install',
          id: 'a1b2c3',
          attributes: { installedAt: '2024-01-02T03:04:05.000Z' },
          links: { self: 'https://cadence.test/api/v2/installs/a1b2c3' },
        },
      }),
    ).not.toThrow();
  });

  it('accepts integer ids, in resources and in relationship linkage', () => {
    expect(() =>
      assertJsonApiDocument({
        data: [
          {
            type: 'prospect',
            id: 42,
            attributes: { firstName: 'Ada' },
            relationships: { account: { data: { type: 'account', id: 7 } } },
            links: { self: 'https://cadence.test/api/v2/prospects/42' },
          },
        ],
        included: [{ type: 'account', id: 7, attributes: { name: 'Analytical Engines' } }],
        links: { self: 'https://cadence.test/api/v2/prospects', next: null },
      }),
    ).not.toThrow();
  });

  it('rejects a document with both data and errors, naming the problem', () => {
    expect(() =>
      assertJsonApiDocument({
        data: null,
        errors: [{ status: '400', title: 'Bad request' }],
      }),
    ).toThrow(/not a valid JSON:API 1.0 document:[\s\S]*must NOT be valid[\s\S]*"errors"/);
  });

  it("accepts links.api on a relationship (the install's org), and no other unknown link member", () => {
    const install = (links: Record<string, string>) => ({
      data: { type: 'install', id: 'a1b2c3', relationships: { org: { data: { type: 'org', id: '1' }, links } } },
    });
    expect(() => assertJsonApiDocument(install({ api: 'https://cadence.test/api/v2' }))).not.toThrow();
    expect(() => assertJsonApiDocument(install({ home: 'https://cadence.test/' }))).toThrow(/relationships\/org\/links/);
  });

  it('rejects an id that is neither string nor integer', () => {
    expect(() => assertJsonApiDocument({ data: { type: 'prospect', id: 4.5 } })).toThrow(/\/data/);
  });
});
