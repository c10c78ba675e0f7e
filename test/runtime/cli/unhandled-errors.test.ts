import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ESCAPE = fileURLToPath(new URL('../../fixtures/unhandled-errors/escape.ts', import.meta.url));

/** Runs the fixture under tsx, as bin/cadence.js runs the CLI; resolves with its exit code and log lines. */
function runEscape(): Promise<{ code: number | null; lines: any[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ESCAPE], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) =>
      resolve({
        code,
        lines: stdout
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l)),
      }),
    );
  });
}

it('an uncaught exception and an unhandled rejection are logged, and the process goes on', async () => {
  const { code, lines } = await runEscape();
  expect(code).toBe(0);
  expect(lines.map((l) => [l.level, l.msg, l.err?.message])).toEqual(
    expect.arrayContaining([
      [50, 'unhandled promise rejection; the process goes on', 'a job forgot this promise'],
      [50, 'uncaught exception; the process goes on', 'a driver callback threw'],
    ]),
  );
  expect(lines.at(-1)).toEqual({ msg: 'still running' });
}, 60_000);
