import { descriptors } from '../../generated/resources/index.js';
import { customObjectRecordPresence } from '../custom-objects/registry.js';
import { customObjectReferences } from '../custom-objects/references.js';
import { createCatalog, createRecordWriter, referencesIndex, type RecordWriter } from '../engine/index.js';
import { webhookDeliveries } from '../webhooks/matching.js';
import { standardBehaviours } from './index.js';

/**
 * The record writer of a Cadence process: the standard resources and their behaviours,
 * custom objects' references, and webhook deliveries as the event sink. Built once per process
 * (API server, worker, CLI) with the process's clock.
 */
export function standardRecordWriter(clock: () => Date): RecordWriter {
  return createRecordWriter({
    catalog: createCatalog(descriptors),
    behaviours: standardBehaviours,
    clock,
    eventSink: webhookDeliveries,
    referencesTo: referencesIndex(descriptors.values()),
    dynamicReferences: customObjectReferences(descriptors),
    dynamicRecords: customObjectRecordPresence,
  });
}
