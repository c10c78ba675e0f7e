import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCadence } from '../../helpers/cli.js';

// Nothing listens there: asking for help, or getting a command wrong, must not need a database.
const NO_DATABASE = 'postgres://cadence@127.0.0.1:1/none';

describe('cadence with no command, help or a wrong command', () => {
  for (const flag of ['--version', '-v']) {
    it(`\`cadence ${flag}\` prints the version of package.json and exits 0`, async () => {
      const { version } = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
      expect(await runCadence(NO_DATABASE, [flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    });
  }

  for (const args of [['--help'], ['-h'], ['help'], [], ['token', 'create', '--help']]) {
    it(`\`cadence ${args.join(' ')}\` prints the usage and exits 0`, async () => {
      const result = await runCadence(NO_DATABASE, args);
      expect(result).toEqual({ code: 0, stdout: expect.stringMatching(/^usage:\n.*\n {2}cadence serve .*\n {2}cadence token create /s), stderr: '' });
    });
  }

  for (const [args, message] of [
    [['frobnicate'], 'unknown command: frobnicate'],
    [['org', 'create', '--colour', 'red'], "unknown option '--colour'"],
    [['org', 'create', '--name'], "option '--name <value>' argument missing"],
  ] as const) {
    it(`\`cadence ${args.join(' ')}\` says what is wrong and prints the usage on stderr, exit 2`, async () => {
      const result = await runCadence(NO_DATABASE, args);
      expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^cadence: .*\nusage:\n.*\n {2}cadence serve /s) });
      expect(result.stderr.split('\n')[0]).toBe(`cadence: ${message}`);
      expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+|stack/);
    });
  }
});
