import type { ResourceDescriptor } from '../model/descriptor.js';
import type { Behaviours, ResourceBehaviour } from './behaviour.js';

/**
 * Behaviours are code and the schema is data: they are checked against each other when the
 * engine is made, so a renamed attribute or a new action fails the start, not a request.
 */

/** Throws, naming each resource and problem, when `behaviours` do not fit the schema. */
export function checkBehaviours(descriptors: ReadonlyMap<string, ResourceDescriptor>, behaviours: Behaviours): void {
  const problems = behaviourProblems(descriptors, behaviours);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

export function behaviourProblems(descriptors: ReadonlyMap<string, ResourceDescriptor>, behaviours: Behaviours): string[] {
  const problems: string[] = [];
  for (const type of behaviours.keys()) {
    if (!descriptors.has(type)) problems.push(`${type}: a behaviour is given, but no resource has this type`);
  }
  for (const descriptor of descriptors.values()) {
    problems.push(...problemsOf(descriptor, behaviours.get(descriptor.type)).map((problem) => `${descriptor.type}: ${problem}`));
  }
  return problems;
}

function problemsOf(descriptor: ResourceDescriptor, behaviour: ResourceBehaviour | undefined): string[] {
  const handlers = behaviour?.actions ?? {};
  const declared = new Set(descriptor.actions.map((a) => a.name));
  const attributes = new Set(descriptor.attributes.map((a) => a.name));
  const changeable = new Set([...attributes, ...descriptor.relationships.flatMap((r) => (r.kind === 'toOne' ? [r.name] : []))]);
  const unchangeable = (by: string) => (name: string) =>
    changeable.has(name) ? [] : [`${by} may change ${name}, which is neither an attribute nor a to-one relationship`];
  return [
    ...[...declared].filter((name) => !Object.hasOwn(handlers, name)).map((name) => `the schema declares action ${name}, which has no handler`),
    ...Object.keys(handlers)
      .filter((name) => !declared.has(name))
      .map((name) => `action ${name} has a handler, but the schema does not declare it`),
    ...(behaviour?.derives ?? []).flatMap(unchangeable('derive')),
    ...Object.entries(handlers).flatMap(([name, handler]) => handler.changes.flatMap(unchangeable(`action ${name}`))),
    ...(behaviour?.sensitiveAttributes ?? []).filter((name) => !attributes.has(name)).map((name) => `sensitive attribute ${name} is not an attribute`),
  ];
}

/**
 * `returned`, once every name in it is one the behaviour declares it may change: the write
 * path calls this with what a derive or an action handler returns. An undeclared name is a
 * programming error, not a client's: an Error, rendered as a 500.
 */
export function declaredChanges<T extends Readonly<Record<string, unknown>>>(behaviourName: string, declared: readonly string[] | undefined, returned: T): T {
  for (const name of Object.keys(returned)) {
    if (!declared?.includes(name)) throw new Error(`${behaviourName} changed ${name}, which it does not declare it may change`);
  }
  return returned;
}
