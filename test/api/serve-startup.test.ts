import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCadence, startCadence } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { until } from '../helpers/wait.js';

/**
 * How `cadence serve` (what `npm start` runs) starts (issue #28): at a terminal one line says
 * where it is and what to run next, besides the JSON logs; elsewhere only JSON logs; a PORT that
 * another process holds is one line on standard error and exit status 3, not a stack trace.
 */

// The API alone: the worker it would supervise has nothing to do with how it starts.
const SERVE_ENV = { HOST: '127.0.0.1', CADENCE_IN_PROCESS_WORKER: 'false' };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

describe('cadence serve on a port another process holds', { timeout: 120_000 }, () => {
  let occupant: Server;
  afterAll(() => occupant?.close());

  it('says so in one line on standard error and exits with status 3', async () => {
    occupant = createServer();
    occupant.listen(0, '127.0.0.1');
    await once(occupant, 'listening');
    const { port } = occupant.address() as AddressInfo;
    const result = await runCadence(database.url, ['serve'], { env: { ...SERVE_ENV, PORT: String(port) } });
    expect(result.stderr).toBe(`cadence: port ${port} on 127.0.0.1 is already in use (set PORT to another port)\n`);
    expect(result.code).toBe(3);
  });
});

describe('cadence serve, ready', { timeout: 120_000 }, () => {
  it('at a terminal: one human line with the URL, the reference at /docs and the next command, besides the JSON logs', async () => {
    // util-linux script(1) runs the command on a pseudo-terminal and copies what it prints; on
    // SIGTERM it passes SIGTERM on to the command.
    const child = spawn('script', ['-qec', 'exec node bin/cadence.js serve', '/dev/null'], {
      env: { ...process.env, ...SERVE_ENV, DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = once(child, 'close');
    try {
      const line = await until('the ready line', () => output.split(/\r?\n/).find((l) => l.startsWith('Cadence is ready at ')), 90_000);
      const match = /^Cadence is ready at (http:\/\/127\.0\.0\.1:\d+) — API reference (\S+) — next: npx cadence sandbox init$/.exec(line);
      expect(match, line).not.toBeNull();
      expect(match![2]).toBe(`${match![1]}/docs`);
      expect((await fetch(match![2]!)).status).toBe(200);
      // The JSON logs still come, on the same terminal.
      expect(output).toContain('"msg":"cadence is serving"');
      expect(output.split(/\r?\n/).filter((l) => l.startsWith('Cadence is ready'))).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('elsewhere: JSON logs only', async () => {
    const serve = startCadence(database.url, ['serve'], { ...SERVE_ENV, PORT: '0' });
    try {
      const url = JSON.parse(await serve.waitForLine(/"cadence is serving"/)).url as string;
      expect((await fetch(`${url}/docs`)).status).toBe(200);
    } finally {
      const stopped = await serve.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
      const lines = stopped.stdout.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(stopped.stdout).not.toContain('Cadence is ready');
    }
  });
});
