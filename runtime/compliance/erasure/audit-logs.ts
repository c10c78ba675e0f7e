import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * Audit logs: their json columns (`changes`, `additional_info`, `agent`) and free texts. The
 * entries stay, so the log still says what was done and when; only the address goes.
 */
export const auditLogsStep: ErasureStep = {
  kind: 'auditLogs',
  tables: ['audit_logs'],
  async run({ sql, subject, log }) {
    const count = await redactColumns(sql, subject.orgId, addressPattern(subject.email), {
      table: 'audit_logs',
      text: ['action', 'event_name', 'global_id', 'request_id', 'result'],
      json: ['additional_info', 'agent', 'changes'],
    });
    log.info({ step: 'auditLogs', count }, 'audit logs redacted');
  },
};
