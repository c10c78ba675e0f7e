/**
 * The "traces" phase of a compliance deletion request: once every prospect with the address has
 * been deleted (with its e-mail addresses, mailings, calls, tasks and the rest, through the
 * record writer), these steps remove the address from what is left: logs, bulk and import
 * bookkeeping, uploaded files, stored mail and other records. Each step is idempotent and
 * touches only the subject's org, and only rows that hold the address.
 */
import { auditLogsStep } from './audit-logs.js';
import { batchesStep } from './batches.js';
import { customObjectRecordsStep } from './custom-object-records.js';
import { eventsStep } from './events.js';
import { importsStep } from './imports.js';
import { kaiaRecordingsStep } from './kaia-recordings.js';
import { mailStep } from './mail.js';
import type { ErasureStep } from './step.js';
import { uploadsStep } from './uploads.js';
import { webhookAttemptsStep } from './webhook-attempts.js';

export { addressPattern, holdsAddress, REDACTED, type AddressPattern } from './address.js';
export { EXEMPT_TABLES } from './exempt-tables.js';
export type { ErasureContext, ErasureStep, ErasureSubject } from './step.js';

/**
 * In this order: the files and bookkeeping an import or bulk request could still act on first,
 * then stored mail and other records, and the logs last. No step depends on another having run;
 * the order only puts what could still be acted on ahead of what is only read.
 */
export const TRACE_STEPS: readonly ErasureStep[] = [
  uploadsStep,
  importsStep,
  batchesStep,
  mailStep,
  customObjectRecordsStep,
  kaiaRecordingsStep,
  auditLogsStep,
  webhookAttemptsStep,
  eventsStep,
];
