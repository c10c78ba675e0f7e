import type { Config } from '../config.js';

/**
 * One `cadence` command as the table in commands.ts lists it: its name, what `--help` says about
 * it, the options it takes, and what it does. main.ts finds the command, parses its options and
 * calls `run`; nothing else there knows any command.
 */

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** Given more than once, every value is kept. */
  readonly multiple?: boolean;
  /** What the value stands for in --help (ID, FILE); none for a boolean option. */
  readonly value?: string;
  /** One line for --help. */
  readonly help: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed value of each option: a string, strings, or a boolean; absent when not given. */
export type OptionValues<O extends OptionSpecs> = {
  readonly [K in keyof O]?: O[K]['multiple'] extends true ? string[] : O[K]['type'] extends 'boolean' ? boolean : string;
};

export interface CommandInput<O extends OptionSpecs> {
  readonly values: OptionValues<O>;
  /** The words after the command's name that are not options (mail show's message id). */
  readonly positionals: readonly string[];
  /** Everything after the command's name, for a command that reads its own arguments (listen). */
  readonly argv: readonly string[];
  /** The configuration, read once from the environment when a command runs. */
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
}

export interface CliCommand<O extends OptionSpecs = OptionSpecs> {
  /** The words that name it: 'serve', 'token create'. */
  readonly name: string;
  /** Its arguments as `cadence --help` shows them after the name: '--org ID [--limit N]'. */
  readonly synopsis: string;
  /** One line: what it does. */
  readonly summary: string;
  /** Rules worth knowing, one sentence a line, for `cadence <command> --help`. */
  readonly notes?: readonly string[];
  readonly options: O;
  /** Words after the name that are not options: none unless said (mail show ID, trigger EVENT). */
  readonly positionals?: { readonly name: string; readonly count: number };
  run(input: CommandInput<O>): Promise<void>;
}

/** Keeps the option names of each command in its own type, so `run` reads `values.org` typed. */
export function defineCommand<const O extends OptionSpecs>(command: CliCommand<O>): CliCommand<O> {
  return command;
}

/** A command line that cannot run: main.ts prints it in one line with where to read more, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';

  constructor(
    message: string,
    /** The command whose --help explains what it takes; none: `cadence --help`. */
    readonly command?: string,
  ) {
    super(message);
  }
}
