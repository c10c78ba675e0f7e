import type { TaskList } from 'graphile-worker';
import { resumeOutOfOfficeTask, RESUME_OOTO_TASK } from './out-of-office.js';
import { FINISH_PAUSED_REPLY_TASK, finishPausedReplyTask } from './reply-actions.js';
import { SYNC_MAILBOX_TASK, SYNC_MAILBOXES_TASK, syncMailboxesTask, syncMailboxTask, type MailSyncDependencies } from './sync-task.js';

/**
 * Replies by mailbox sync (issue #16): every minute the crontab's fan-out gives each mailbox
 * with an IMAP host that is due (syncActiveFrequency seconds, 300 unset) a sync job; the job
 * reads INBOX's new messages over IMAP and acts on those answering the org's mailings, by
 * In-Reply-To or References against the mailings' messageId: a reply marks the mailing replied,
 * counts on the prospect and finishes, pauses or marks replied its sequence state as the
 * sequence's primaryReplyAction (else finishOnReply) says; an out-of-office answer pauses the
 * state, and resumes it later when the sequence's ruleset says so. testSync checks a login.
 */

export { imapFlowConnect, ImapFailure, type ImapConnect, type ImapSession, type ImapSettings } from './imap-client.js';
export { mountTestSyncRoute, testSyncServedElsewhere, type TestSyncOptions } from './test-sync-route.js';
export { DEFAULT_OOTO_RESUME_DAYS, RESUME_OOTO_TASK } from './out-of-office.js';
export { FINISH_PAUSED_REPLY_TASK, REPLY_PAUSE_REASON, replyActionOf, type ReplyAction } from './reply-actions.js';
export { DEFAULT_SYNC_FREQUENCY_SECONDS, SYNC_MAILBOX_TASK, SYNC_MAILBOXES_TASK, syncJob } from './sync-task.js';

/** The worker's mail sync tasks. */
export function mailSyncTasks(deps: MailSyncDependencies): TaskList {
  return {
    [SYNC_MAILBOXES_TASK]: syncMailboxesTask(deps),
    [SYNC_MAILBOX_TASK]: syncMailboxTask(deps),
    [RESUME_OOTO_TASK]: resumeOutOfOfficeTask(deps),
    [FINISH_PAUSED_REPLY_TASK]: finishPausedReplyTask(deps),
  };
}

/** Every minute: the mailboxes due a sync get their job (a mailbox's own frequency decides). */
export const MAIL_SYNC_CRONTAB = `* * * * * ${SYNC_MAILBOXES_TASK}`;
