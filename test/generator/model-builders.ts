// Pieces of the generator's model for tests that feed an emitter one piece at a time.
import type { AttributeModel } from '../../generator/model.js';

/** A plain string attribute, with `given` over it: not filterable, sortable, required or searched. */
export function attribute(name: string, given: Partial<AttributeModel> = {}): AttributeModel {
  return {
    name,
    column: name,
    type: 'string',
    filterable: false,
    sortable: false,
    readOnly: false,
    writeOnly: false,
    required: false,
    search: false,
    indexed: true,
    ...given,
  };
}
