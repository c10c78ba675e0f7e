/**
 * The tenant tables with text or JSON columns that a deletion request leaves alone, each with
 * why it holds no personal data of a prospect that the request must erase. Every other such
 * table is erased by a step (its `tables`) or with the prospect in phase 1: the erasure test
 * reads the tables of a migrated database and fails on one that is neither, so a new table
 * lands here, with its reason, or in a step.
 *
 * Names as PostgreSQL gives them with the public schema first on the search path.
 */
export const EXEMPT_TABLES: Readonly<Record<string, string>> = {
  // Credentials and bookkeeping of the service itself, keyed by apps, users and orgs.
  'cadence_system.access_tokens': "hashes of API tokens, their scopes and app: an app's or user's credentials",
  'cadence_system.app_installs': "an app's installation in the org and the hash of its setup token",
  'cadence_system.oauth_grants': "an app's OAuth grant: its scopes",
  'cadence_system.request_counts': 'rate-limit counters per holder (an app or token id) and window',
  'cadence_system.user_credentials': "the login and password hash of the org's users, not of prospects",
  'cadence_system.user_invitations': 'hashes of invitation tokens for users',
  bulk_allowances: "the org's daily allowance of bulk items (a token bucket's state)",
  bulk_idempotency_keys: "a bulk upsert's Idempotency-Key and a SHA-256 of its request: the request's data is in batches and batch_items, which are scrubbed",
  compliance_request_tasks: "the erasure's own tasks: a kind, a state and an error that never quotes the address (task-run.ts)",
  compliance_requests:
    "the request itself: it holds the address only until its last task is done, which clears request_object_email (request-rows.ts); the requester is one of the org's users",
  favorites: "a user's favourite record: its type and id",
  tracking_hits: 'an open or click of a mailing: the kind and time only; the mailing is deleted with the prospect',

  // The org's configuration: names, labels and texts its users give to their own tools.
  call_dispositions: "the org's call outcomes, by name",
  call_purposes: "the org's call purposes, by name",
  content_categories: "the org's content categories: a name and a colour",
  content_category_memberships: 'a content category holding a sequence, snippet or template: the type and id of that content',
  custom_object_definitions: "the org's custom object types: names of fields and relationships; the records' values are in custom_object_records, which are scrubbed",
  duties: "the org's duties: a type and a name",
  opportunity_stages: "the org's opportunity stages: a name and a colour",
  personas: "the org's personas: a name and a description of a kind of buyer",
  profiles: "the org's permission profiles",
  roles: "the org's user roles",
  rulesets: "the org's sequence rules: names and chosen actions",
  sequence_steps: "a sequence's steps: their type, name and task note, written for every prospect the sequence reaches; a prospect's own tasks are deleted with it",
  sequences: "the org's sequences: names, descriptions and settings",
  snippets: "the org's reusable texts, written for any prospect",
  stages: "the org's prospect stages: a name and a colour",
  task_dispositions: "the org's task outcomes, by name",
  task_priorities: "the org's task priorities, by name",
  task_purposes: "the org's task purposes, by name",
  teams: "the org's teams of users",
  templates:
    "the org's e-mail templates, written for any prospect; their fixed to/cc/bcc recipients are copied on every mailing sent from the template, so they are the org's own addresses, not a prospect's; a prospect's mailings are deleted with it",
  webhooks: "the org's webhook subscriptions: a receiver's URL and secret",

  // The org's users and mail set-up.
  mail_aliases: "the addresses the org's users send from",
  mailbox_sync_states: "where the sync of a user's mailbox stands (an IMAP UIDVALIDITY)",
  mailboxes:
    "the org's users' mailboxes and their settings; prospect_email_exclusions is a do-not-mail list, which must keep an address so it is not mailed again (a suppression list is kept on purpose)",
  org_settings: "the org's exclusion lists (contact, e-mail, send): do-not-contact lists, which must keep an address so it is not contacted again",
  users: "the org's users, not prospects",

  // Companies and deals: records of organisations, not of a person.
  accounts: "a company: its name, domain and descriptions; a person's data is on prospects, deleted with the prospect",
  account_notes: "notes on a company written by users; a prospect's notes are prospect_notes, deleted with the prospect",
  opportunities: "a deal with a company; the prospect's roles in it (opportunity_prospect_roles) are deleted with the prospect",
  products: "the org's product catalogue",
  purchases: "a company's purchases of products",
};
