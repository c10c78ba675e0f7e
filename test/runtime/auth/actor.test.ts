import { describe, expect, it } from 'vitest';
import { actsForAppAlone, authorizingUser } from '../../../runtime/auth/index.js';
import { ApiError } from '../../../runtime/jsonapi/index.js';

const user = { userId: 7, appId: undefined };
const app = { userId: null, appId: '0b6f6a52-3f5e-4a43-9d55-3a1f4a0c1f00' };
const pointer = '/data/relationships/authorizer';

describe('authorizingUser', () => {
  const cases: [string, { userId: number | null; appId?: string | null }, number | null | undefined, number][] = [
    ["a user's token, naming no one: the user", user, undefined, 7],
    ["a user's token, naming null: the user", user, null, 7],
    ["a user's token, naming another user: that user", user, 9, 9],
    ['an S2S token naming a user: that user', app, 9, 9],
  ];
  it.each(cases)('%s', (_name, auth, named, want) => {
    expect(authorizingUser(auth, named, pointer)).toBe(want);
  });

  it('an S2S token naming no one: 422 at the pointer', () => {
    const refusal = (() => {
      try {
        authorizingUser(app, undefined, pointer);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(422);
    expect((refusal as ApiError).errors).toEqual([
      {
        id: 'validationError',
        status: '422',
        title: 'Validation Error',
        detail: 'A server-to-server token acts for no user: this write must name the authorizing user (a user of the organisation)',
        source: { pointer },
      },
    ]);
  });
});

describe('actsForAppAlone', () => {
  it('is true only for a token with an app and no user', () => {
    expect(actsForAppAlone(app)).toBe(true);
    expect(actsForAppAlone(user)).toBe(false);
    expect(actsForAppAlone({ userId: null, appId: undefined })).toBe(false);
  });
});
