import { descriptors } from '../../generated/resources/index.js';
import { createOrg } from '../admin/index.js';
import { standardRecordWriter } from '../behaviours/standard-writer.js';
import {
  clockRequest,
  DEFAULT_PROSPECTS,
  MAX_PROSPECTS,
  parseListenArguments,
  runClockCommand,
  runListen,
  seedOrg,
  triggerEvent,
  triggerRecipes,
} from '../sandbox/index.js';
import { ORG_OPTION, positiveInteger } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { print, withDatabase } from './operator-io.js';
import { untilSignal } from './signals.js';

/** Cadence as a local sandbox for integrations (runtime/sandbox): events, triggers, sample data, the test clock. */

const SAMPLE_OPTIONS = {
  prospects: { type: 'string', value: 'N', help: `how many prospects (${DEFAULT_PROSPECTS} if not given, at most ${MAX_PROSPECTS})` },
  seed: { type: 'string', value: 'N', help: 'the random seed: the same seed writes the same records (1 if not given)' },
} as const;

function sampleOptions(values: { prospects?: string; seed?: string }): { prospects: number; seed: number } {
  const prospects = values.prospects === undefined ? DEFAULT_PROSPECTS : positiveInteger('prospects', values.prospects);
  if (prospects > MAX_PROSPECTS) throw new UsageError(`--prospects must be at most ${MAX_PROSPECTS}, not ${prospects}`);
  return { prospects, seed: values.seed === undefined ? 1 : positiveInteger('seed', values.seed) };
}

export const sandboxCommands = [
  defineCommand({
    name: 'listen',
    synopsis: '--org ID --forward-to URL [--events prospect.*,mailing.opened] [--version 1|2] [--json]',
    summary: "prints the org's events as they commit and POSTs each, signed, as its webhook delivery",
    notes: ['It runs until SIGINT or SIGTERM, which end it with status 0.'],
    options: {
      org: ORG_OPTION,
      'forward-to': { type: 'string', value: 'URL', help: 'where each event is POSTed (plain http only to this machine)' },
      events: { type: 'string', value: 'LIST', help: 'comma-separated resource.action patterns (every event if not given)' },
      version: { type: 'string', value: '1|2', help: 'the payload version (1 if not given)' },
      json: { type: 'boolean', help: 'print each delivery as JSON rather than a line of text' },
    },
    run: ({ config, argv }) => {
      const options = parseListenArguments(argv);
      return withDatabase(config, (sql) => runListen(sql, options, { write: (line) => process.stdout.write(`${line}\n`) }, untilSignal()));
    },
  }),
  defineCommand({
    name: 'trigger',
    synopsis: 'EVENT --org ID | --list',
    summary: 'makes the records that fire EVENT (e.g. prospect.created), through the record writer',
    options: { org: ORG_OPTION, list: { type: 'boolean', help: 'name every event it can fire' } },
    positionals: { name: 'EVENT', count: 1 },
    run: ({ config, values, positionals }) => {
      if (values.list) return Promise.resolve(print({ events: [...triggerRecipes(descriptors).keys()] }));
      const orgId = positiveInteger('org', values.org);
      if (positionals.length !== 1)
        throw new UsageError('trigger takes one event name, e.g. cadence trigger prospect.created --org 1 (cadence trigger --list names them all)');
      const event = positionals[0]!;
      return withDatabase(config, async (sql) => print(await triggerEvent({ sql, writer: standardRecordWriter(() => new Date()), descriptors }, orgId, event)));
    },
  }),
  defineCommand({
    name: 'sandbox init',
    synopsis: '[--name NAME] [--prospects N] [--seed N]',
    summary: 'org create, then sandbox seed in the new org',
    options: { name: { type: 'string', value: 'NAME', help: 'the org\'s name ("Cadence sandbox" if not given)' }, ...SAMPLE_OPTIONS },
    run: ({ config, values }) => {
      const options = sampleOptions(values);
      return withDatabase(config, async (sql) => {
        const org = await createOrg(sql, { name: values.name ?? 'Cadence sandbox' });
        print({ ...org, seeded: await seedOrg({ sql, writer: standardRecordWriter(() => new Date()) }, org.orgId, options) });
      });
    },
  }),
  defineCommand({
    name: 'sandbox seed',
    synopsis: '--org ID [--prospects N] [--seed N]',
    summary: 'sample records in the org, written through the record writer',
    options: { org: ORG_OPTION, ...SAMPLE_OPTIONS },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const options = sampleOptions(values);
      return withDatabase(config, async (sql) => print({ orgId, seeded: await seedOrg({ sql, writer: standardRecordWriter(() => new Date()) }, orgId, options) }));
    },
  }),
  defineCommand({
    name: 'clock show',
    synopsis: '--org ID',
    summary: "the org's time (CADENCE_SANDBOX=true only)",
    options: { org: ORG_OPTION },
    run: ({ config, values }) => {
      const request = clockRequest('clock show', { org: values.org, by: undefined }, config.sandbox);
      return withDatabase(config, async (sql) => print(await runClockCommand(sql, request)));
    },
  }),
  defineCommand({
    name: 'clock advance',
    synopsis: '--org ID --by 1d',
    summary: "moves the org's time forward (90s, 15m, 2h, 1d): what it scheduled runs as if that time had passed",
    options: { org: ORG_OPTION, by: { type: 'string', value: 'DURATION', help: 'how far: a whole number of s, m, h or d, at most ten years' } },
    run: ({ config, values }) => {
      const request = clockRequest('clock advance', { org: values.org, by: values.by }, config.sandbox);
      return withDatabase(config, async (sql) => print(await runClockCommand(sql, request)));
    },
  }),
];
