import { pointerSegment, type FieldError } from '../jsonapi/index.js';
import type { BodyIssue } from '../model/descriptor.js';

/**
 * Turns Ajv's errors into JSON:API field errors: one per pointer, with a sentence a client
 * developer can act on. Errors of combinators (anyOf) only repeat their branches' errors.
 */
export function fieldErrorsOf(issues: readonly BodyIssue[]): FieldError[] {
  const byPointer = new Map<string, string>();
  for (const issue of issues) {
    if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf' || issue.keyword === 'if') continue;
    const { pointer, detail } = describeIssue(issue);
    if (!byPointer.has(pointer)) byPointer.set(pointer, detail);
  }
  return [...byPointer].map(([pointer, detail]) => ({ pointer, detail }));
}

function memberKind(path: string): string {
  if (path.endsWith('/data/attributes')) return 'attribute';
  if (path.endsWith('/data/relationships')) return 'relationship';
  return 'member';
}

function describeIssue(issue: BodyIssue): FieldError {
  const params = issue.params;
  if (issue.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty);
    return { pointer: `${issue.instancePath}/${pointerSegment(name)}`, detail: `"${name}" is not a known ${memberKind(issue.instancePath)}` };
  }
  if (issue.keyword === 'required') {
    const name = String(params.missingProperty);
    return { pointer: `${issue.instancePath}/${pointerSegment(name)}`, detail: `"${name}" is required` };
  }
  const field = issue.instancePath.split('/').pop() || 'the body';
  if (issue.keyword === 'const') return { pointer: issue.instancePath, detail: `${field} must be "${String(params.allowedValue)}"` };
  if (issue.keyword === 'enum') {
    const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    return { pointer: issue.instancePath, detail: `${field} must be one of ${allowed}` };
  }
  return { pointer: issue.instancePath, detail: `${field} ${issue.message ?? 'is not valid'}` };
}
