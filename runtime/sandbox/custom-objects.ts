import type postgres from 'postgres';
import { descriptors } from '../../generated/resources/index.js';
import { defineCustomObject, listDefinitions } from '../custom-objects/definitions.js';
import { orgDescriptors, withoutDanglingInverses } from '../custom-objects/org-descriptors.js';
import { createCatalog, type ResourceCatalog } from '../engine/index.js';

/**
 * The custom objects the sandbox defines in an org: a competitor, and a meeting with a prospect
 * and optionally a competitor. Defined as `cadence custom-object define` defines them, so seeding
 * again changes nothing but the definitions' versions when they already match.
 */
export const SANDBOX_CUSTOM_OBJECTS = [
  {
    name: 'sandboxCompetitor',
    displayName: 'Competitor (sandbox)',
    displayField: 'name',
    fields: [
      { name: 'name', type: 'string', required: true, filterable: true, sortable: true },
      { name: 'website', type: 'string' },
      { name: 'threatLevel', type: 'integer', filterable: true, sortable: true },
    ],
  },
  {
    name: 'sandboxMeeting',
    displayName: 'Meeting (sandbox)',
    displayField: 'title',
    fields: [
      { name: 'title', type: 'string', required: true, filterable: true, sortable: true },
      { name: 'startsAt', type: 'date-time', filterable: true, sortable: true },
      { name: 'booked', type: 'boolean', filterable: true },
    ],
    relationships: [
      { name: 'prospect', target: 'prospect' },
      { name: 'competitor', target: 'sandboxCompetitor' },
    ],
  },
] as const;

/** Defines (or updates) the sandbox's custom objects and returns the org's catalog with them, for the record writer. */
export async function defineSandboxObjects(sql: postgres.Sql, orgId: number): Promise<ResourceCatalog> {
  const standardTypes = new Set(descriptors.keys());
  for (const definition of SANDBOX_CUSTOM_OBJECTS) await defineCustomObject(sql, orgId, definition, standardTypes);
  return createCatalog(orgDescriptors(descriptors, withoutDanglingInverses(await listDefinitions(sql, orgId))));
}
