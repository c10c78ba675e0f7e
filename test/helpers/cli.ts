import { spawn } from 'node:child_process';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `cadence` CLI (bin/cadence.js) against a test database, as an operator would,
 * with `input` on its standard input.
 */
export function runCadence(databaseUrl: string, args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/cadence.js', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
