/**
 * cadence <command>: finds the command in the table (commands.ts), reads its options, and runs
 * it; `--help` after any command says what that command takes. Database resolution is the
 * server's: DATABASE_URL, or the embedded PostgreSQL in .data/ (reused when a server already runs
 * it, started and stopped here otherwise).
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { AdminError } from '../admin/index.js';
import { readConfig } from '../config.js';
import { AddressUnavailable } from '../http/listen.js';
import { CredentialProblem } from '../oauth/index.js';
import { UsageError, type CliCommand, type OptionSpecs, type OptionValues } from './command.js';
import { COMMANDS } from './commands.js';
import { commandHelp, commandList } from './help.js';
import { cadenceVersion } from './operator-io.js';
import { exitOnSignals } from './signals.js';

/** A command line that cannot run, or an operator action refused: the operator can fix it. */
const EXIT_USAGE = 2;
/** The address to serve on is taken (or not this machine's): another process, not this one, is in the way. */
const EXIT_ADDRESS_UNAVAILABLE = 3;

/** The command whose name the leading words of `argv` spell, the longest such ('app key add' before 'app'). */
function findCommand(argv: readonly string[]): CliCommand | undefined {
  const matches = COMMANDS.filter((c) => c.name.split(' ').every((word, i) => argv[i] === word));
  return matches.sort((a, b) => b.name.length - a.name.length)[0];
}

/** The words before the first option: what the operator meant as a command. */
function commandWords(argv: readonly string[]): string[] {
  const end = argv.findIndex((a) => a.startsWith('-'));
  return argv.slice(0, end === -1 ? argv.length : end);
}

/**
 * Words that begin command names but are none ('org', 'app key'): `--help` after them lists those
 * commands; otherwise the operator is told which there are. Any other words are no command.
 */
function commandGroup(argv: readonly string[]): void {
  const words = commandWords(argv);
  const prefixes = words.map((_, i) => words.slice(0, i + 1).join(' '));
  const prefix = prefixes.filter((p) => COMMANDS.some((c) => c.name.startsWith(`${p} `))).at(-1);
  if (prefix === undefined) throw new UsageError(`unknown command: ${words.join(' ')}`);
  const group = COMMANDS.filter((c) => c.name.startsWith(`${prefix} `));
  if (prefix !== words.join(' ')) throw new UsageError(`unknown command: ${words.join(' ')}`, prefix);
  const rest = argv.slice(words.length);
  if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
    process.stdout.write(commandList(group, `usage: cadence ${prefix} <command> [options]`));
    return;
  }
  throw new UsageError(`${prefix} takes a command: ${group.map((c) => c.name.slice(prefix.length + 1)).join(', ')}`, prefix);
}

/** Reads a command's options; a malformed one is a usage error naming it, not a crash with a stack trace. */
function parseOptions(command: CliCommand, argv: readonly string[]) {
  const options = Object.fromEntries(Object.entries(command.options).map(([name, spec]) => [name, { type: spec.type, multiple: spec.multiple ?? false }]));
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { ...options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw error;
    // Node's first sentence says what is wrong ("Unknown option '--colour'"); the rest is advice
    // about '--' that the command's help makes unnecessary.
    const [what = ''] = (error as Error).message.split('. ');
    throw new UsageError(what.charAt(0).toLowerCase() + what.slice(1), command.name);
  }
}

export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  // Asked for, help goes to standard output and is no failure; before the configuration is read,
  // so that it works whatever the environment holds.
  const [first] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') return void process.stdout.write(commandList(COMMANDS));
  if (first === '--version' || first === '-v') return void process.stdout.write(`${await cadenceVersion()}\n`);
  if (first.startsWith('-')) throw new UsageError(`unknown option '${first}'; options follow the command`);
  const command = findCommand(argv);
  if (!command) return commandGroup(argv);
  const rest = argv.slice(command.name.split(' ').length);
  const { values, positionals } = parseOptions(command, rest);
  if (values.help) return void process.stdout.write(commandHelp(command));
  const allowed = command.positionals?.count ?? 0;
  if (positionals.length > allowed) throw new UsageError(`unexpected argument '${positionals[allowed]}'`, command.name);
  try {
    // Each option was parsed as its spec says: the command's own type of values holds.
    await command.run({ values: values as OptionValues<OptionSpecs>, positionals, argv: rest, config: readConfig(env), env });
  } catch (error) {
    // The command's own checks name the option; where to read about it is the dispatcher's to say.
    if (error instanceof UsageError && error.command === undefined) throw new UsageError(error.message, command.name);
    throw error;
  }
}

/** What a failed command prints: one line for what the operator can fix, a JSON log line with the stack for a fault. */
function reportFailure(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`cadence: ${error.message} (run cadence ${error.command ? `${error.command} ` : ''}--help)\n`);
    return EXIT_USAGE;
  }
  if (error instanceof AdminError || error instanceof CredentialProblem) {
    process.stderr.write(`cadence: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof AddressUnavailable) {
    process.stderr.write(`cadence: ${error.message}\n`);
    return EXIT_ADDRESS_UNAVAILABLE;
  }
  pino({ base: { service: 'cadence' } }, pino.destination(2)).error({ err: error }, 'command failed');
  return 1;
}

exitOnSignals();
try {
  await runCli(process.argv.slice(2), process.env);
} catch (error) {
  process.exitCode = reportFailure(error);
}
