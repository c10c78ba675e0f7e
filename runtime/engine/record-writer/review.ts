/**
 * The checks of a group's prepared records: each record's own (its relationships point at
 * records the org has, its resource's check), then the resource's review of the whole set.
 * A record refused by either gets its outcome; the rest are returned to be written.
 */
import { validationError, type FieldError } from '../../jsonapi/index.js';
import type { ResourceDescriptor } from '../../model/descriptor.js';
import type { ResourceBehaviour, Review, ReviewedWrite } from '../behaviour.js';
import { declaredChanges } from '../behaviour-check.js';
import { behaviourProblems, changesByName, nextValues, type RuleContext } from '../record-rules.js';
import { existingTargets } from '../set-statements.js';
import type { WriteOutcome } from '../write-operations.js';
import { namedView, recordReader } from './record-reader.js';
import type { Prepared, SetWrite } from './set-write.js';

/** The records that pass their own checks and the set's review, as the review leaves them. */
export async function accepted(set: SetWrite, rules: RuleContext, prepared: readonly Prepared[], outcomes: WriteOutcome[]): Promise<Prepared[]> {
  const problems = await problemsOf(set, rules, prepared);
  const checked = prepared.filter((p) => {
    const found = problems.get(p.index);
    if (found?.length) outcomes[p.index] = { status: 'refused', error: validationError(found) };
    return !found?.length;
  });
  return reviewed(set, rules, checked, outcomes);
}

/**
 * Each record's problems: relationships (polymorphic ones too, which no foreign key guards) to
 * records the org does not have (asked for the whole set in one statement), then the resource's
 * own check.
 */
async function problemsOf(set: SetWrite, rules: RuleContext, prepared: readonly Prepared[]): Promise<Map<number, FieldError[]>> {
  const problems = new Map<number, FieldError[]>();
  const existing = await existingTargets(set.tx, set.orgId, targetsOf(set, prepared));
  const lookup = recordReader(set);
  for (const p of prepared) {
    if (!p.changes) continue;
    const found: FieldError[] = [];
    for (const [rel, id] of p.changes.relationships) {
      if (id !== null && set.catalog.has(rel.target) && !existing.has(`${rel.target}:${id}`)) {
        found.push({ pointer: `/data/relationships/${rel.name}`, detail: `${rel.name} refers to a ${rel.target} that does not exist` });
      }
    }
    for (const [rel, target] of p.changes.polymorphic ?? []) {
      if (target !== null && set.catalog.has(target.type) && !existing.has(`${target.type}:${target.id}`)) {
        found.push({ pointer: `/data/relationships/${rel.name}/data`, detail: `${rel.name} refers to a ${target.type} that does not exist` });
      }
    }
    if (found.length === 0) found.push(...(await behaviourProblems(rules, p.changes, p.current, lookup)));
    if (found.length) problems.set(p.index, found);
  }
  return problems;
}

/** The ids the records' relationships point at, by the type they point at. */
function targetsOf(set: SetWrite, prepared: readonly Prepared[]): Map<ResourceDescriptor, Set<number>> {
  const targets = new Map<ResourceDescriptor, Set<number>>();
  for (const p of prepared) {
    for (const [rel, id] of p.changes?.relationships ?? []) {
      if (id === null || !set.catalog.has(rel.target)) continue;
      const target = set.catalog.entry(rel.target).descriptor;
      targets.set(target, (targets.get(target) ?? new Set()).add(id));
    }
    for (const named of p.changes?.polymorphic?.values() ?? []) {
      if (named === null || !set.catalog.has(named.type)) continue;
      const target = set.catalog.entry(named.type).descriptor;
      targets.set(target, (targets.get(target) ?? new Set()).add(named.id));
    }
  }
  return targets;
}

/**
 * The resource's set-level review of the records that passed their own checks: refuses some,
 * adds changes to others (a sequence state's first step). Returns the records to write.
 */
async function reviewed(set: SetWrite, rules: RuleContext, checked: readonly Prepared[], outcomes: WriteOutcome[]): Promise<Prepared[]> {
  const behaviour = set.options.behaviours.get(rules.descriptor.type);
  if (!behaviour?.review || checked.length === 0) return [...checked];
  const writes: ReviewedWrite[] = checked.map((p) => ({
    kind: p.op.kind,
    next: p.changes ? nextValues(rules.descriptor, p.changes, p.current) : null,
    previous: p.current && namedView(rules.descriptor, p.current),
    ...(p.changes?.action && { action: p.changes.action }),
  }));
  const reviews = await behaviour.review(writes, recordReader(set), { orgId: set.orgId, now: set.now, actor: set.actor });
  return checked.flatMap((p, i) => {
    const review = reviews[i] ?? {};
    if (!review.problems?.length) return [withReview(rules.descriptor, behaviour, p, review)];
    outcomes[p.index] = { status: 'refused', error: validationError(review.problems) };
    return [];
  });
}

/** A record with the changes its review adds. */
function withReview(descriptor: ResourceDescriptor, behaviour: ResourceBehaviour, p: Prepared, review: Review): Prepared {
  if (!review.changes || !p.changes || Object.keys(review.changes).length === 0) return p;
  const added = changesByName(descriptor, declaredChanges(`${descriptor.type} review`, behaviour.derives, review.changes));
  return {
    ...p,
    changes: {
      ...p.changes,
      attributes: new Map([...p.changes.attributes, ...added.attributes]),
      relationships: new Map([...p.changes.relationships, ...added.relationships]),
      polymorphic: new Map([...(p.changes.polymorphic ?? []), ...(added.polymorphic ?? [])]),
    },
  };
}
