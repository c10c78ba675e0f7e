import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** SPEC.md's query parameters on collection and single GETs, through HTTP. */

let api: TestApi;
const statements: string[] = [];
const accountIds: number[] = [];
let ownerId: number;

const names = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Ken', 'Dennis', 'Margaret', 'John', 'Frances', 'Niklaus'];

beforeAll(async () => {
  api = await startTestApi({ onQuery: (text) => statements.push(text) });
  ownerId = api.org.userId;
  for (const name of ['Initech', 'Globex', 'Hooli']) {
    const response = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name, domain: `${name.toLowerCase()}.test` } } } });
    accountIds.push(response.body.data.id);
  }
  for (const [i, firstName] of names.entries()) {
    await api.request('POST', '/api/v2/prospects', {
      body: {
        data: {
          type: 'prospect',
          attributes: {
            firstName,
            lastName: i % 3 === 0 ? null : `Last${i}`,
            title: i % 2 === 0 ? 'Engineer' : 'Manager',
            emails: [`${firstName.toLowerCase()}@example.test`],
          },
          relationships: {
            account: { data: { type: 'account', id: accountIds[i % 3] } },
            ...(i < 4 && { owner: { data: { type: 'user', id: ownerId } } }),
          },
        },
      },
    });
  }
});
afterAll(async () => {
  await api?.close();
});

const firstNames = (body: { data: { attributes: { firstName: string } }[] }) => body.data.map((p) => p.attributes.firstName);

async function get(path: string) {
  const response = await api.request('GET', path);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('filters', () => {
  it('a single value, a list, null and not null', async () => {
    expect(firstNames(await get('/api/v2/prospects?filter[firstName]=Ada'))).toEqual(['Ada']);
    expect(firstNames(await get('/api/v2/prospects?filter[firstName]=Ada,Grace,Nobody'))).toEqual(['Ada', 'Grace']);
    expect((await get('/api/v2/prospects?filter[lastName]=__null__')).data).toHaveLength(4);
    expect((await get('/api/v2/prospects?filter[lastName]=__notnull__')).data).toHaveLength(8);
  });

  it('ranges are inclusive at both ends, open with neginf and inf', async () => {
    const all = (await get('/api/v2/prospects?sort=id')).data;
    const [a, b] = [all[2].id, all[5].id];
    expect((await get(`/api/v2/prospects?filter[id]=${a}..${b}`)).data).toHaveLength(4);
    const created = all[5].attributes.createdAt;
    const upTo = (await get(`/api/v2/prospects?filter[createdAt]=neginf..${created}`)).data;
    expect(upTo.map((p: { id: number }) => p.id)).toContain(b);
    const from = (await get(`/api/v2/prospects?filter[createdAt]=${created.replace('.000Z', 'Z').replace(/\.\d+Z$/, 'Z')}..inf`)).data;
    expect(from.length).toBeGreaterThan(0);
  });

  it('newFilterSyntax: repeated values, gte/lte, commas literal', async () => {
    expect(firstNames(await get('/api/v2/prospects?newFilterSyntax=true&filter[firstName][]=Ada&filter[firstName][]=Ken'))).toEqual(['Ada', 'Ken']);
    expect((await get('/api/v2/prospects?newFilterSyntax=true&filter[firstName]=Ada,Ken')).data).toEqual([]);
    expect(firstNames(await get('/api/v2/prospects?newFilterSyntax=true&filter[firstName][gte]=K&filter[firstName][lte]=M&sort=firstName'))).toEqual(['Ken']);
    expect(firstNames(await get('/api/v2/prospects?newFilterSyntax=true&filter[firstName][gte]=N&sort=firstName'))).toEqual(['Niklaus']);
  });

  it('relationship filters by id, and by an allowed attribute', async () => {
    const byAccount = await get(`/api/v2/prospects?filter[account][id]=${accountIds[0]},${accountIds[1]}`);
    expect(byAccount.data).toHaveLength(8);
    expect(firstNames(await get('/api/v2/prospects?filter[account][name]=Hooli&sort=firstName'))).toEqual(['Donald', 'Grace', 'Margaret', 'Niklaus']);
    expect((await get(`/api/v2/prospects?filter[owner][id]=${ownerId}`)).data).toHaveLength(4);
    const accounts = await get(`/api/v2/accounts?filter[prospects][id]=${byAccount.data[0].id}`);
    expect(accounts.data).toHaveLength(1);
  });

  it('boolean filters, single and listed', async () => {
    await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Named Co', named: true } } } });
    expect((await get('/api/v2/accounts?filter[named]=true')).data.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(['Named Co']);
    expect((await get('/api/v2/accounts?filter[named]=true,false')).data).toHaveLength(1);
  });

  it('an array attribute matches any of its values', async () => {
    expect(firstNames(await get('/api/v2/prospects?filter[emails]=ken@example.test'))).toEqual(['Ken']);
  });

  it('filter[q]: global prefix, within an attribute, exact, null, not null; case-insensitive', async () => {
    expect(firstNames(await get('/api/v2/prospects?filter[q]=ed&sort=firstName'))).toEqual(['Edsger']);
    expect(firstNames(await get('/api/v2/prospects?filter[q]=MAN,title&sort=firstName'))).toHaveLength(6);
    expect(firstNames(await get('/api/v2/prospects?filter[q]=_ken_,firstName'))).toEqual(['Ken']);
    expect(firstNames(await get('/api/v2/prospects?filter[q]=_ke_,firstName'))).toEqual([]);
    expect((await get('/api/v2/prospects?filter[q]=_NULL_,lastName')).data).toHaveLength(4);
    expect((await get('/api/v2/prospects?filter[q]=_NOTNULL_,lastName')).data).toHaveLength(8);
    expect((await get('/api/v2/accounts?filter[q]=glo')).data).toHaveLength(1);
    expect((await get('/api/v2/prospects?filter[q]=50%25')).data).toEqual([]);
  });

  it('400 for unfilterable or unknown attributes, bad values, and q elsewhere', async () => {
    for (const [path, parameter] of [
      ['/api/v2/prospects?filter[custom1]=x', 'filter[custom1]'],
      ['/api/v2/prospects?filter[nope]=x', 'filter[nope]'],
      ['/api/v2/prospects?filter[createdAt]=yesterday', 'filter[createdAt]'],
      ['/api/v2/prospects?filter[id]=abc', 'filter[id]'],
      ['/api/v2/accounts?filter[named]=maybe', 'filter[named]'],
      ['/api/v2/prospects?filter[stage][name]=x', 'filter[stage][name]'],
      ['/api/v2/tasks?filter[q]=x', 'filter[q]'],
      ['/api/v2/tasks?filter[state]=done', 'filter[state]'],
      ['/api/v2/prospects?filter[firstName][]=x', 'filter[firstName][]'],
    ]) {
      const response = await api.request('GET', path!);
      expect(response.status, path).toBe(400);
      expect(response.body.errors[0].source, path).toEqual({ parameter });
    }
  });
});

describe('sort', () => {
  it('sorts by attributes, descending with -, ties broken by id', async () => {
    expect(firstNames(await get('/api/v2/prospects?sort=firstName')).slice(0, 3)).toEqual(['Ada', 'Alan', 'Barbara']);
    const byTitle = (await get('/api/v2/prospects?sort=-title,firstName')).data;
    expect(byTitle.slice(0, 6).every((p: { attributes: { title: string } }) => p.attributes.title === 'Manager')).toBe(true);
    expect(byTitle[0].attributes.firstName).toBe('Alan');
  });

  it('400 for unsortable attributes and relationship attributes', async () => {
    for (const sort of ['emails', 'account.name', 'nope']) {
      const response = await api.request('GET', `/api/v2/prospects?sort=${sort}`);
      expect(response.status, sort).toBe(400);
      expect(response.body.errors[0].source).toEqual({ parameter: 'sort' });
    }
  });
});

describe('cursor pages', () => {
  async function walk(path: string, direction: 'next' | 'prev' = 'next') {
    const seen: string[] = [];
    let url: string | undefined = path;
    let pages = 0;
    while (url) {
      const body = await get(url.replace(api.baseUrl, ''));
      seen.push(...firstNames(body));
      url = body.links[direction];
      pages++;
      expect(pages).toBeLessThan(20);
    }
    return seen;
  }

  it('walks every row once with links.next, under any sort, and ends without next', async () => {
    const all = firstNames(await get('/api/v2/prospects?sort=lastName,-firstName&page[size]=100'));
    expect(await walk('/api/v2/prospects?sort=lastName,-firstName&page[size]=5')).toEqual(all);
    expect(await walk('/api/v2/prospects?sort=-updatedAt&page[size]=3')).toEqual(firstNames(await get('/api/v2/prospects?sort=-updatedAt')));
  });

  it('walks back with links.prev', async () => {
    const first = await get('/api/v2/prospects?sort=firstName&page[size]=5');
    expect(first.links.prev).toBeUndefined();
    const second = await get(first.links.next.replace(api.baseUrl, ''));
    const back = await get(second.links.prev.replace(api.baseUrl, ''));
    expect(firstNames(back)).toEqual(firstNames(first));
  });

  it('links are absolute, keep other parameters, sorted and percent-encoded', async () => {
    const body = await get('/api/v2/prospects?sort=firstName&page[size]=2&filter[title]=Engineer');
    expect(body.links.first).toBe(`${api.baseUrl}/api/v2/prospects?filter%5Btitle%5D=Engineer&page%5Bsize%5D=2&sort=firstName`);
    expect(body.links.next).toMatch(new RegExp(`^${api.baseUrl}/api/v2/prospects\\?filter%5Btitle%5D=Engineer&page%5Bafter%5D=[^&]+&page%5Bsize%5D=2&sort=firstName$`));
  });

  it('a forged, foreign or mismatched cursor is a 400', async () => {
    const body = await get('/api/v2/prospects?sort=firstName&page[size]=2');
    const cursor = new URL(body.links.next).searchParams.get('page[after]')!;
    const bytes = Buffer.from(cursor, 'base64url');
    bytes.writeUInt8(bytes.readUInt8(bytes.length >> 1) ^ 1, bytes.length >> 1);
    const edited = bytes.toString('base64url');
    const plain = `${Buffer.from(JSON.stringify(['Zed', 1])).toString('base64url')}`;
    for (const path of [
      `/api/v2/prospects?sort=firstName&page[after]=${edited}`,
      `/api/v2/prospects?sort=firstName&page[after]=${plain}`,
      `/api/v2/prospects?sort=lastName&page[after]=${cursor}`,
      `/api/v2/accounts?sort=firstName&page[after]=${cursor}`,
    ]) {
      const response = await api.request('GET', path);
      expect(response.status, path).toBe(400);
    }
    const other = await api.newOrg();
    const foreign = await api.request('GET', `/api/v2/prospects?sort=firstName&page[after]=${cursor}`, { token: other.token });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].source).toEqual({ parameter: 'page[after]' });
  });

  it('a cursor reveals nothing of the records it follows', async () => {
    const body = await get('/api/v2/prospects?sort=firstName&page[size]=2');
    const last = body.data.at(-1).attributes.firstName as string;
    const cursors = [
      new URL(body.links.next).searchParams.get('page[after]')!,
      new URL((await get('/api/v2/prospects?sort=firstName&page[size]=2')).links.next).searchParams.get('page[after]')!,
    ];
    for (const cursor of cursors) {
      expect(cursor).not.toContain(Buffer.from(last).toString('base64url').slice(0, 4));
      expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain(last);
    }
    // Encrypted afresh each time: equal positions are not even recognisable as equal.
    expect(cursors[0]).not.toBe(cursors[1]);
    const next = await get(`/api/v2/prospects?sort=firstName&page[size]=2&page[after]=${cursors[1]}`);
    expect(next.data[0].attributes.firstName >= last).toBe(true);
  });

  it('a repeated parameter is fine when the copies agree, 400 when they do not', async () => {
    expect((await api.request('GET', '/api/v2/prospects?page[size]=2&page[size]=2')).status).toBe(200);
    expect((await api.request('GET', '/api/v2/prospects?page[size]=2&page[size]=3')).status).toBe(400);
  });
});

describe('offset pages, counts', () => {
  it('page[offset] and page[limit] with links.last and a Deprecation header', async () => {
    const response = await api.request('GET', '/api/v2/prospects?page[offset]=5&page[limit]=5&sort=firstName');
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.body.data).toHaveLength(5);
    expect(new URL(response.body.links.last).searchParams.get('page[offset]')).toBe('10');
    expect(new URL(response.body.links.prev).searchParams.get('page[offset]')).toBe('0');
    expect((await api.request('GET', '/api/v2/prospects?page[offset]=10001')).status).toBe(400);
    expect((await api.request('GET', '/api/v2/prospects?page[limit]=1001')).status).toBe(400);
  });

  it('count=true gives meta.count; without it count is null and count_truncated absent', async () => {
    const counted = await get('/api/v2/prospects?count=true&filter[title]=Engineer&page[size]=1');
    expect(counted.meta).toEqual({ count: 6, count_truncated: false });
    expect((await get('/api/v2/prospects')).meta).toEqual({ count: null });
  });
});

describe('include and fields', () => {
  it('includes to-one relationships, nested, each resource once', async () => {
    const body = await get('/api/v2/prospects?include=account,owner&page[size]=100');
    const types = body.included.map((r: { type: string; id: number }) => `${r.type}:${r.id}`);
    expect(new Set(types).size).toBe(types.length);
    expect(types.filter((t: string) => t.startsWith('account:'))).toHaveLength(3);
    expect(types.filter((t: string) => t.startsWith('user:'))).toHaveLength(1);
    const nested = await get('/api/v2/prospects?include=account.owner&filter[firstName]=Ada');
    expect(nested.included.map((r: { type: string }) => r.type)).toEqual(['account']);
  });

  it('the number of statements grows with include depth, not page size', async () => {
    const countFor = async (path: string) => {
      statements.length = 0;
      await get(path);
      // The rate limiter settles its counts once a second from the same pool, in the background
      // (runtime/ratelimit): a settle landing inside a slower request is none of that request's.
      return statements.filter((s) => !/^(begin|commit)/i.test(s.trim()) && !s.includes('cadence_system.request_counts as c')).length;
    };
    // The fewest of three tries: work the pool does in the background for other callers (the rate
    // limiter's settle, the token cache's recheck) can land inside any one request, never subtract.
    const fewest = async (path: string) => Math.min(await countFor(path), await countFor(path), await countFor(path));
    const small = await fewest('/api/v2/prospects?include=account,owner&page[size]=2');
    const large = await fewest('/api/v2/prospects?include=account,owner&page[size]=100');
    expect(large).toBe(small);
  });

  it('400 for unknown or link-only include paths', async () => {
    for (const include of ['nope', 'account.nope', 'mailings']) {
      const response = await api.request('GET', `/api/v2/prospects?include=${include}`);
      expect(response.status, include).toBe(400);
      expect(response.body.errors[0].source).toEqual({ parameter: 'include' });
    }
  });

  it('fields[type] limits attributes and relationships of primary and included resources', async () => {
    const body = await get('/api/v2/prospects?include=account&fields[prospect]=firstName,account&fields[account]=name&filter[firstName]=Ada');
    expect(body.data[0].attributes).toEqual({ firstName: 'Ada' });
    expect(Object.keys(body.data[0].relationships)).toEqual(['account']);
    expect(body.included[0].attributes).toEqual({ name: 'Initech' });
    expect(body.included[0].relationships).toEqual({});
    const empty = await get('/api/v2/prospects?fields[prospect]=&filter[firstName]=Ada');
    expect(empty.data[0].attributes).toEqual({});
  });

  it('fields apply to single GETs and writes; include is refused on writes', async () => {
    const one = await get(`/api/v2/accounts/${accountIds[0]}?fields[account]=domain`);
    expect(one.data.attributes).toEqual({ domain: 'initech.test' });
    const created = await api.request('POST', '/api/v2/accounts?fields[account]=name', { body: { data: { type: 'account', attributes: { name: 'X' } } } });
    expect(created.body.data.attributes).toEqual({ name: 'X' });
    const refused = await api.request('POST', '/api/v2/accounts?include=owner', { body: { data: { type: 'account' } } });
    expect(refused.status).toBe(400);
    expect((await api.request('GET', '/api/v2/prospects?fields[prospect]=nope')).status).toBe(400);
    expect((await api.request('GET', '/api/v2/prospects?fields[account.owner]=x')).status).toBe(400);
  });

  it('single GETs accept include', async () => {
    const all = await get('/api/v2/prospects?filter[firstName]=Ada');
    const one = await get(`/api/v2/prospects/${all.data[0].id}?include=account`);
    expect(one.included).toHaveLength(1);
  });
});
