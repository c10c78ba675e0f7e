/**
 * cadence <command>: serve, worker, migrate, and the operator commands that print JSON.
 * Database resolution is the server's: DATABASE_URL, or the embedded PostgreSQL in .data/
 * (reused when a server already runs it, started and stopped here otherwise).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { descriptors } from '../../generated/resources/index.js';
import { defineCustomObject } from '../custom-objects/definitions.js';
import { ApiError } from '../jsonapi/index.js';
import { pino } from 'pino';
import { AdminError, createOrg, createToken, createUser } from '../admin/index.js';
import { addKey, createApp, deleteOrg, installApp, lockOrg, revokeKey, uninstallApp, unlockOrg } from '../apps/index.js';
import { readConfig, type Config } from '../config.js';
import { CredentialProblem, inviteUser, setPassword } from '../oauth/index.js';
import { resolveDatabase } from '../db/database-url.js';
import { withOperatorDatabase } from '../db/operator-database.js';
import { MIGRATIONS_DIR, runMigrations } from '../db/migrate.js';
import { createLogger } from '../logger.js';
import { listMailMessages, showMailMessage } from '../mail/index.js';
import { setOrgRateLimit } from '../ratelimit/index.js';
import { parseListenArguments, runListen } from '../sandbox/index.js';
import { backupCommand, restoreCommand } from '../backup/index.js';
import { orgExportCommand, orgImportCommand } from '../org-transfer/index.js';
import { DEFAULT_PROSPECTS, MAX_PROSPECTS, resetOrg, seedOrg, triggerEvent, triggerRecipes } from '../sandbox/index.js';
import { clockRequest, runClockCommand } from '../sandbox/index.js';
import { standardRecordWriter } from '../behaviours/standard-writer.js';
import { startServer } from '../server.js';
import { startWorker, workerOptionsFrom } from '../worker.js';
import { logUnhandledErrors } from './unhandled-errors.js';
import { createMetricsRegistry, listenForMetrics } from '../metrics/index.js';
import type postgres from 'postgres';

const USAGE = `usage:
  cadence help, --help, -h          this text (--help also after any command)
  cadence --version, -v             the version of Cadence, from package.json
  cadence serve                     run the API (and a worker process it supervises)
  cadence worker                    run background workers only
  cadence migrate                   apply database migrations
  cadence org create --name NAME [--admin-email EMAIL]
  cadence user create --org ID --email EMAIL [--admin]
  cadence user set-password --org ID --user ID [--login EMAIL]   reads the password from standard input
  cadence user invite --org ID --user ID       prints a link (7 days) where the user sets a password
  cadence token create --org ID --user ID --scopes a.read,b.write [--ttl SECONDS]
  cadence custom-object define --org ID --file DEFINITION.json
  cadence org lock|unlock|delete --org ID
  cadence org reset --org ID --yes             deletes every record of the org but its users (tokens and settings stay)
  cadence org set-rate-limit --org ID --per-hour N|--default   requests per hour per token holder in the org
  cadence app create --name NAME [--redirect-uri URI]... [--scopes a.read,b.write] [--s2s-scopes prospects.all,accounts.read]
                    [--lifecycle-url HTTPS-URL]   prints lifecycleWebhookSecret, the key its deliveries are signed with
  cadence app key add --app GUID --public-key-file FILE.pem
  cadence app key revoke --app GUID --key ID
  cadence app install --app GUID --org ID      prints the install id and a setup token (15 minutes)
  cadence app uninstall --app GUID --org ID
  cadence mail list --org ID [--limit N]       messages the local transport stored (no SMTP_URL), newest first
  cadence mail show ID --org ID                one of them, with its whole MIME text
  cadence backup --out FILE                    the whole database, as of one moment (gzip)
  cadence restore --in FILE                    a backup, into an empty database
  cadence org export --org ID --out FILE [--with-tokens]   one org's records (gzip NDJSON)
  cadence org import --in FILE [--with-tokens]             them, as a new org
  cadence listen --org ID --forward-to URL [--events prospect.*,mailing.opened] [--version 1|2] [--json]
                    prints the org's events as they commit and POSTs each, signed, as its webhook delivery
  cadence trigger EVENT --org ID               makes the records that fire EVENT (e.g. prospect.created); --list names them all
  cadence sandbox init [--name NAME] [--prospects N] [--seed N]   org create, then sandbox seed in the new org
  cadence sandbox seed --org ID [--prospects N] [--seed N]         sample records (1000 prospects by default, at most 100000)
  cadence clock show --org ID                  the org's time (CADENCE_SANDBOX=true only)
  cadence clock advance --org ID --by 1d       moves the org's time forward (90s, 15m, 2h, 1d): what it scheduled runs as if that time had passed`;

class UsageError extends Error {}

/** The version in the package.json beside runtime/ (the one release notes in CHANGELOG.md name). */
async function cadenceVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function scopeList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function requiredString(name: string, text: string | undefined): string {
  if (text === undefined || text === '') throw new UsageError(`--${name} is required`);
  return text;
}

/**
 * An e-mail address as the API's validators take one (Ajv's "email" format, which the user
 * schema's `format: email` compiles to): the operator is told here rather than left with a
 * user no one can sign in as.
 */
function emailAddress(name: string, text: string | undefined): string {
  const address = requiredString(name, text);
  if (!(fullFormats.email as RegExp).test(address)) throw new UsageError(`--${name} must be an e-mail address (name@example.com), not "${address}"`);
  return address;
}

function positiveInteger(name: string, text: string | undefined): number {
  if (text === undefined || !/^[1-9][0-9]*$/.test(text)) throw new UsageError(`--${name} must be a positive integer`);
  return Number(text);
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs `work` against the configured database, migrated, and releases it afterwards. */
function withDatabase<T>(config: Config, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const env = { DATABASE_URL: config.databaseUrl, CADENCE_DATA_DIR: config.dataDir };
  return withOperatorDatabase(env, { migrationsFolder: MIGRATIONS_DIR, connections: 2 }, work);
}

/** A signal this soon after the first is the same event arriving twice (see untilSignal). */
const REPEATED_SIGNAL_MS = 1000;

/**
 * Resolves on the first SIGINT or SIGTERM, taking over from exitOnSignal; a later one exits at
 * once. Only Cadence's own handlers come and go: under tsx's command the process also has one
 * that tells tsx the signal arrived, and without it tsx kills the process 60 ms later. tsx may
 * pass a signal on once more, so a repeat within REPEATED_SIGNAL_MS is the same one.
 */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const shutDown = () => {
      const first = Date.now();
      const again = (signal: NodeJS.Signals) => {
        if (Date.now() - first > REPEATED_SIGNAL_MS) exitOnSignal(signal);
      };
      replaceSignalHandler(shutDown, again);
      resolve();
    };
    replaceSignalHandler(exitOnSignal, shutDown);
  });
}

/**
 * Adds before it removes: a signal with no listener left stops Node's watch on it, and a signal
 * that had arrived but was not yet handled is then lost.
 */
function replaceSignalHandler(current: (signal: NodeJS.Signals) => void, next: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, next);
    process.off(signal, current);
  }
}

async function serveCommand(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  logUnhandledErrors(log);
  const server = await startServer(config, log, process.env);
  await untilSignal();
  log.info('shutting down');
  await server.close();
}

/**
 * Resolves when the `cadence serve` that started this worker is gone (its IPC channel closed,
 * however it ended); never when nothing started it that way.
 */
function untilSupervisorGone(): Promise<void> {
  if (!process.connected) return new Promise(() => {});
  return new Promise((resolve) => process.once('disconnect', resolve));
}

async function workerCommand(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  logUnhandledErrors(log);
  const database = await resolveDatabase({ DATABASE_URL: config.databaseUrl, CADENCE_DATA_DIR: config.dataDir });
  await runMigrations(database.url, MIGRATIONS_DIR);
  // METRICS_PORT: the worker's own /metrics, at the API's HOST; listening first, so that a port in use stops the worker before it runs a job.
  const metrics = config.metricsPort === undefined ? undefined : createMetricsRegistry();
  const metricsListener = metrics && (await listenForMetrics({ registry: metrics, token: config.metricsToken, port: config.metricsPort!, hostname: config.host, log }));
  const worker = await startWorker({ databaseUrl: database.url, log, ...workerOptionsFrom(config), ...(metrics && { metrics }) });
  await Promise.race([untilSignal(), untilSupervisorGone(), worker.ended]);
  await worker.stop();
  await metricsListener?.close();
  await database.stop();
  // An open IPC channel would keep the stopped worker's process alive.
  if (process.connected) process.disconnect();
}

/** `cadence listen` until SIGINT or SIGTERM, which end it with status 0. */
async function listenCommand(config: Config, argv: string[]): Promise<void> {
  const options = parseListenArguments(argv);
  await withDatabase(config, (sql) => runListen(sql, options, { write: (line) => process.stdout.write(`${line}\n`) }, untilSignal()));
}

/** Reads the command line; a malformed one is a usage error, not a crash with a stack trace. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        name: { type: 'string' },
        'admin-email': { type: 'string' },
        org: { type: 'string' },
        user: { type: 'string' },
        email: { type: 'string' },
        admin: { type: 'boolean' },
        scopes: { type: 'string' },
        ttl: { type: 'string' },
        file: { type: 'string' },
        app: { type: 'string' },
        key: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        's2s-scopes': { type: 'string' },
        'lifecycle-url': { type: 'string' },
        'public-key-file': { type: 'string' },
        login: { type: 'string' },
        limit: { type: 'string' },
        'per-hour': { type: 'string' },
        default: { type: 'boolean' },
        out: { type: 'string' },
        in: { type: 'string' },
        'with-tokens': { type: 'boolean' },
        list: { type: 'boolean' },
        prospects: { type: 'string' },
        seed: { type: 'string' },
        yes: { type: 'boolean' },
        by: { type: 'string' },
      },
    });
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw error;
    // Node's first sentence says what is wrong ("Unknown option '--colour'"); the rest is advice
    // about '--' that the usage text makes unnecessary.
    const [what = ''] = (error as Error).message.split('. ');
    throw new UsageError(what.charAt(0).toLowerCase() + what.slice(1));
  }
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  // listen reads its own arguments: its --version takes a value (the payload version).
  if (argv[0] === 'listen') {
    if (!argv.includes('--help') && !argv.includes('-h')) return listenCommand(readConfig(env), argv.slice(1));
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { values, positionals } = parseCommandLine(argv);
  // Asked for, help goes to standard output and is no failure; before the configuration is read,
  // so that it works whatever the environment holds.
  if (values.help || (positionals.length === 0 && !values.version) || positionals[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values.version) {
    process.stdout.write(`${await cadenceVersion()}\n`);
    return;
  }
  const config = readConfig(env);
  // `mail show <id>` and `trigger <event>` take an argument of their own.
  const command = positionals[0] === 'mail' && positionals[1] === 'show' ? 'mail show' : positionals[0] === 'trigger' ? 'trigger' : positionals.join(' ');
  switch (command) {
    case 'serve':
      return serveCommand(config);
    case 'worker':
      return workerCommand(config);
    case 'migrate':
      return withDatabase(config, async () => print({ migrated: true }));
    case 'org create': {
      if (!values.name) throw new UsageError('--name is required');
      const name = values.name;
      const adminEmail = values['admin-email'] === undefined ? undefined : emailAddress('admin-email', values['admin-email']);
      return withDatabase(config, async (sql) => print(await createOrg(sql, { name, ...(adminEmail && { adminEmail }) })));
    }
    case 'user create': {
      const orgId = positiveInteger('org', values.org);
      const email = emailAddress('email', values.email);
      return withDatabase(config, async (sql) => print(await createUser(sql, { orgId, email, admin: values.admin ?? false })));
    }
    case 'user set-password': {
      const orgId = positiveInteger('org', values.org);
      const userId = positiveInteger('user', values.user);
      const login = values.login;
      // From standard input, never an argument: arguments show up in process lists and shell history.
      const password = (await readStandardInput()).replace(/\r?\n$/, '');
      if (password === '') throw new UsageError('the password is read from standard input, which was empty');
      return withDatabase(config, async (sql) => print(await setPassword(sql, { orgId, userId, password, ...(login && { login }) })));
    }
    case 'user invite': {
      const orgId = positiveInteger('org', values.org);
      const userId = positiveInteger('user', values.user);
      const base = config.publicBaseUrl ?? `http://${config.host}:${config.port}`;
      return withDatabase(config, async (sql) => {
        const invitation = await inviteUser(sql, { orgId, userId });
        print({ invitationUrl: new URL(`/account/invitations/${invitation.token}`, base).toString(), login: invitation.login, expiresAt: invitation.expiresAt });
      });
    }
    case 'token create': {
      const orgId = positiveInteger('org', values.org);
      const userId = positiveInteger('user', values.user);
      const scopes = scopeList(values.scopes);
      if (scopes.length === 0) throw new UsageError('--scopes is required (comma-separated, e.g. prospects.read)');
      const ttlSeconds = values.ttl === undefined ? undefined : positiveInteger('ttl', values.ttl);
      return withDatabase(config, async (sql) => print(await createToken(sql, { orgId, userId, scopes, ...(ttlSeconds !== undefined && { ttlSeconds }) })));
    }
    case 'custom-object define': {
      const orgId = positiveInteger('org', values.org);
      if (!values.file) throw new UsageError('--file is required (a JSON definition)');
      let definition: unknown;
      try {
        definition = JSON.parse(await readFile(values.file, 'utf8'));
      } catch (error) {
        throw new UsageError(`cannot read a JSON definition from ${values.file}: ${(error as Error).message}`);
      }
      return withDatabase(config, async (sql) => {
        try {
          const defined = await defineCustomObject(sql, orgId, definition, new Set(descriptors.keys()));
          print({ definitionId: defined.id, name: defined.name, version: defined.version });
        } catch (error) {
          // Definition faults are JSON:API errors; the CLI prints them as they are.
          if (error instanceof ApiError) throw new AdminError(JSON.stringify({ errors: error.errors }));
          throw error;
        }
      });
    }
    case 'org lock':
    case 'org unlock':
    case 'org delete': {
      const orgId = positiveInteger('org', values.org);
      const change = { 'org lock': lockOrg, 'org unlock': unlockOrg, 'org delete': deleteOrg }[command];
      return withDatabase(config, async (sql) => print(await change(sql, orgId)));
    }
    case 'org reset': {
      const orgId = positiveInteger('org', values.org);
      if (!values.yes) throw new UsageError(`org reset deletes every record of org ${orgId} but its users; add --yes to do it`);
      return withDatabase(config, async (sql) => print({ orgId, deleted: await resetOrg({ sql, writer: standardRecordWriter(() => new Date()) }, orgId) }));
    }
    case 'org set-rate-limit': {
      const orgId = positiveInteger('org', values.org);
      if ((values['per-hour'] === undefined) === !values.default) throw new UsageError('org set-rate-limit takes either --per-hour N or --default');
      const perHour = values.default ? null : positiveInteger('per-hour', values['per-hour']);
      return withDatabase(config, async (sql) => print(await setOrgRateLimit(sql, orgId, perHour)));
    }
    case 'app create': {
      const registration = {
        name: requiredString('name', values.name),
        redirectUris: values['redirect-uri'] ?? [],
        oauthScopes: scopeList(values.scopes),
        s2sScopes: scopeList(values['s2s-scopes']),
        ...(values['lifecycle-url'] !== undefined && { lifecycleWebhookUrl: values['lifecycle-url'] }),
      };
      return withDatabase(config, async (sql) => print(await createApp(sql, registration)));
    }
    case 'app key add': {
      const appId = requiredString('app', values.app);
      const file = requiredString('public-key-file', values['public-key-file']);
      let publicKeyPem: string;
      try {
        publicKeyPem = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read the public key from ${file}: ${(error as Error).message}`);
      }
      return withDatabase(config, async (sql) => print(await addKey(sql, { appId, publicKeyPem })));
    }
    case 'app key revoke': {
      const appId = requiredString('app', values.app);
      const keyId = positiveInteger('key', values.key);
      return withDatabase(config, async (sql) => print(await revokeKey(sql, { appId, keyId })));
    }
    case 'app install':
    case 'app uninstall': {
      const appId = requiredString('app', values.app);
      const orgId = positiveInteger('org', values.org);
      const change = command === 'app install' ? installApp : uninstallApp;
      return withDatabase(config, async (sql) => print(await change(sql, { appId, orgId })));
    }
    case 'mail list': {
      const orgId = positiveInteger('org', values.org);
      const limit = values.limit === undefined ? undefined : positiveInteger('limit', values.limit);
      return withDatabase(config, async (sql) => print(await listMailMessages(sql, orgId, limit)));
    }
    case 'mail show': {
      const orgId = positiveInteger('org', values.org);
      if (positionals.length !== 3 || !/^[1-9][0-9]*$/.test(positionals[2]!)) throw new UsageError('mail show takes one message id, e.g. cadence mail show 7 --org 1');
      const id = Number(positionals[2]);
      return withDatabase(config, async (sql) => {
        const message = await showMailMessage(sql, orgId, id);
        if (!message) throw new AdminError(`org ${orgId} has no mail message ${id}`);
        print(message);
      });
    }
    case 'backup':
    case 'restore':
    case 'org export':
    case 'org import': {
      const databaseEnv = { DATABASE_URL: config.databaseUrl, CADENCE_DATA_DIR: config.dataDir };
      const migrationsFolder = MIGRATIONS_DIR;
      const withTokens = values['with-tokens'] ?? false;
      if (command === 'backup')
        return print(await backupCommand(databaseEnv, { out: requiredString('out', values.out), cadenceVersion: await cadenceVersion(), migrationsFolder }));
      if (command === 'restore') return print(await restoreCommand(databaseEnv, { in: requiredString('in', values.in), migrationsFolder }));
      if (command === 'org export') {
        const options = {
          orgId: positiveInteger('org', values.org),
          out: requiredString('out', values.out),
          withTokens,
          cadenceVersion: await cadenceVersion(),
          migrationsFolder,
        };
        return print(await orgExportCommand(databaseEnv, options));
      }
      return print(await orgImportCommand(databaseEnv, { in: requiredString('in', values.in), withTokens, migrationsFolder }));
    }
    case 'trigger': {
      if (values.list) return print({ events: [...triggerRecipes(descriptors).keys()] });
      const orgId = positiveInteger('org', values.org);
      if (positionals.length !== 2)
        throw new UsageError('trigger takes one event name, e.g. cadence trigger prospect.created --org 1 (cadence trigger --list names them all)');
      const event = positionals[1]!;
      return withDatabase(config, async (sql) => print(await triggerEvent({ sql, writer: standardRecordWriter(() => new Date()), descriptors }, orgId, event)));
    }
    case 'sandbox init':
    case 'sandbox seed': {
      const orgId = command === 'sandbox seed' ? positiveInteger('org', values.org) : undefined;
      const prospects = values.prospects === undefined ? DEFAULT_PROSPECTS : positiveInteger('prospects', values.prospects);
      if (prospects > MAX_PROSPECTS) throw new UsageError(`--prospects must be at most ${MAX_PROSPECTS}, not ${prospects}`);
      const options = { prospects, seed: values.seed === undefined ? 1 : positiveInteger('seed', values.seed) };
      return withDatabase(config, async (sql) => {
        const deps = { sql, writer: standardRecordWriter(() => new Date()) };
        if (orgId !== undefined) return print({ orgId, seeded: await seedOrg(deps, orgId, options) });
        const org = await createOrg(sql, { name: values.name ?? 'Cadence sandbox' });
        print({ ...org, seeded: await seedOrg(deps, org.orgId, options) });
      });
    }
    case 'clock show':
    case 'clock advance': {
      const request = clockRequest(command, { org: values.org, by: values.by }, config.sandbox);
      return withDatabase(config, async (sql) => print(await runClockCommand(sql, request)));
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

// serve and worker shut down gracefully on a signal (see untilSignal); any other command just
// exits, and the exit hook stops an embedded PostgreSQL it started.
const exitOnSignal = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
process.on('SIGINT', exitOnSignal);
process.on('SIGTERM', exitOnSignal);

try {
  await runCli(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof UsageError || error instanceof AdminError || error instanceof CredentialProblem) {
    process.stderr.write(`cadence: ${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exitCode = 2;
  } else {
    pino({ base: { service: 'cadence' } }, pino.destination(2)).error({ err: error }, 'command failed');
    process.exitCode = 1;
  }
}
