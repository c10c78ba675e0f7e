import { describe, expect, it } from 'vitest';
import { addressPattern, holdsAddress } from '../../../runtime/compliance/erasure/index.js';

/** The address matcher in JavaScript; the same patterns in PostgreSQL are checked by erasure.test.ts. */
describe('addressPattern', () => {
  const pattern = addressPattern('  Jane.Doe+crm@Example.com ');

  it.each([
    ['jane.doe+crm@example.com', true],
    ['JANE.DOE+CRM@EXAMPLE.COM', true],
    ['Jane <jane.doe+crm@example.com>', true],
    ['mailto:jane.doe+crm@example.com?subject=hi', true],
    ['write to jane.doe+crm@example.com.', true],
    ['"line\\njane.doe+crm@example.com"', true],
    ['email=jane.doe+crm@example.com', true],
    ['mary.jane.doe+crm@example.com', false],
    ['xjane.doe+crm@example.com', false],
    ['jane.doe+crm@example.com.au', false],
    ['jane.doe+crm@example.community', false],
    ['janeXdoe+crm@example.com', false],
  ])('%s: %s', (text, holds) => {
    expect(holdsAddress(pattern, text)).toBe(holds);
  });

  it('names the address lower-cased and refuses text that is not an address', () => {
    expect(pattern.address).toBe('jane.doe+crm@example.com');
    expect(() => addressPattern('jane')).toThrow(TypeError);
  });
});
