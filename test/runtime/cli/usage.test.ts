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

  for (const args of [['--help'], ['-h'], ['help'], []]) {
    it(`\`cadence ${args.join(' ')}\` lists every command, one line each, and exits 0`, async () => {
      const result = await runCadence(NO_DATABASE, args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const lines = result.stdout.split('\n');
      expect(lines[0]).toBe('usage: cadence <command> [options]');
      for (const command of ['serve', 'org create', 'org list', 'user list', 'token create', 'token list', 'token revoke', 'app list', 'mail show', 'sandbox seed']) {
        expect(
          lines.filter((line) => line.startsWith(`  ${command}  `)),
          command,
        ).toHaveLength(1);
      }
    });
  }

  for (const [args, usage] of [
    [['token', 'create', '--help'], 'usage: cadence token create --org ID --user ID --scopes a.read,b.write [--ttl SECONDS]'],
    [['token', 'revoke', '-h'], 'usage: cadence token revoke --org ID --token-id ID'],
    [['app', 'key', 'add', '--help'], 'usage: cadence app key add --app GUID --public-key-file FILE.pem'],
    [['listen', '--help'], 'usage: cadence listen --org ID --forward-to URL [--events prospect.*,mailing.opened] [--version 1|2] [--json]'],
    [['serve', '--help'], 'usage: cadence serve'],
  ] as const) {
    it(`\`cadence ${args.join(' ')}\` prints that command's help alone, each of its options, and exits 0`, async () => {
      const result = await runCadence(NO_DATABASE, args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout.split('\n')[0]).toBe(usage);
      expect(result.stdout).toMatch(/\noptions:\n/);
      expect(result.stdout).toContain('  --help, -h');
      // No other command's line.
      expect(result.stdout).not.toMatch(/^ {2}(org create|sandbox seed) /m);
    });
  }

  it('`cadence token create --help` describes each option it takes', async () => {
    const { stdout } = await runCadence(NO_DATABASE, ['token', 'create', '--help']);
    for (const option of ['--org ID', '--user ID', '--scopes LIST', '--ttl SECONDS']) expect(stdout).toMatch(new RegExp(`^ {2}${option} +\\S`, 'm'));
  });

  it('`cadence org --help` lists the org commands alone', async () => {
    const result = await runCadence(NO_DATABASE, ['org', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}org list +every org/m);
    expect(result.stdout).not.toMatch(/^ {2}token create /m);
  });

  for (const [args, message] of [
    [['frobnicate'], 'unknown command: frobnicate (run cadence --help)'],
    [['org', 'frob'], 'unknown command: org frob (run cadence org --help)'],
    [['token'], 'token takes a command: create, list, revoke (run cadence token --help)'],
    [['--colour'], "unknown option '--colour'; options follow the command (run cadence --help)"],
    [['org', 'create', '--colour', 'red'], "unknown option '--colour' (run cadence org create --help)"],
    [['org', 'create', '--name'], "option '--name <value>' argument missing (run cadence org create --help)"],
    [['token', 'list'], '--org must be a positive integer (run cadence token list --help)'],
    [['token', 'revoke', '--org', '1', '--token-id', 'cad_secret'], '--token-id is 16 hex digits, as cadence token list shows it (run cadence token revoke --help)'],
    [['mail', 'show', '7', '8', '--org', '1'], "unexpected argument '8' (run cadence mail show --help)"],
  ] as const) {
    it(`\`cadence ${args.join(' ')}\` says in one line what is wrong and where to read more, exit 2`, async () => {
      const result = await runCadence(NO_DATABASE, args);
      expect(result).toEqual({ code: 2, stdout: '', stderr: `cadence: ${message}\n` });
    });
  }
});
