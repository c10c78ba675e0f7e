import type { CliCommand } from './command.js';

/** What `cadence --help` and `cadence <command> --help` print. */

type Row = readonly [string, string];

function widthOf(rows: readonly Row[]): number {
  return Math.max(...rows.map(([left]) => left.length));
}

function columns(rows: readonly Row[], width = widthOf(rows)): string[] {
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

/** Every command, one line each: `cadence --help`, or the commands of one group (`cadence org --help`). */
export function commandList(commands: readonly CliCommand[], heading = 'usage: cadence <command> [options]'): string {
  const rows = commands.map((c) => [c.name, c.summary] as const);
  const general = [
    ['--help, -h, help', 'this text; cadence <command> --help: what one command takes'],
    ['--version, -v', 'the version of Cadence, from package.json'],
  ] as const;
  const width = widthOf([...rows, ...general]);
  return [heading, '', 'commands:', ...columns(rows, width), '', ...columns(general, width), ''].join('\n');
}

/** One command: how it is called, what it does, each option, and the rules worth knowing. */
export function commandHelp(command: CliCommand): string {
  const options = Object.entries(command.options).map(([name, spec]) => [`--${name}${spec.value ? ` ${spec.value}` : ''}`, spec.help] as const);
  const lines = [
    `usage: cadence ${command.name}${command.synopsis ? ` ${command.synopsis}` : ''}`,
    '',
    `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`,
  ];
  if (command.notes?.length) lines.push('', ...command.notes);
  lines.push('', 'options:', ...columns([...options, ['--help, -h', 'this text']]), '');
  return lines.join('\n');
}
