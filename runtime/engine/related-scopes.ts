import { allows } from '../auth/index.js';
import { forbidden } from '../jsonapi/index.js';
import type { FilterCondition, IncludeNode } from '../query/index.js';

/**
 * A request may read other resources than its own: `include` returns them, and a filter on a
 * related resource's attribute reveals their values one question at a time. Either needs the
 * read scope of those resources, as a GET of them would; 403 otherwise, naming the parameter.
 */
export function requireScopesOfRelated(scopes: ReadonlySet<string>, include: readonly IncludeNode[], filters: readonly FilterCondition[] = []): void {
  for (const { node, path } of includedNodes(include)) {
    const stem = node.target.scope;
    if (!allows(scopes, stem, 'read')) {
      throw forbidden('insufficientScope', `include=${path} needs the scope ${stem}.read (or ${stem}.all)`, { parameter: 'include' });
    }
  }
  for (const filter of filters) {
    if (filter.on !== 'relationshipAttribute') continue;
    const stem = filter.target.scope;
    if (!allows(scopes, stem, 'read')) {
      throw forbidden('insufficientScope', `${filter.parameter} reads ${filter.target.collection} and needs the scope ${stem}.read (or ${stem}.all)`, {
        parameter: filter.parameter,
      });
    }
  }
}

function* includedNodes(nodes: readonly IncludeNode[], prefix = ''): Generator<{ node: IncludeNode; path: string }> {
  for (const node of nodes) {
    const path = `${prefix}${node.relationship.name}`;
    yield { node, path };
    yield* includedNodes(node.children, `${path}.`);
  }
}
