import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * A Debian package's program for tests that run the real component (PgBouncer, HAProxy). Like
 * chromium.ts: installed when missing and the tests run as root (CI machines start without it),
 * otherwise a clear error. The package's own service is stopped if installing started it: the
 * tests run instances of their own, with their own configuration, on free loopback ports.
 */
export function ensureDebianPackage(packageName: string, program: string): string {
  if (existsSync(program)) return program;
  if (process.getuid?.() !== 0) throw new Error(`${program} is missing: install Debian's ${packageName} package (apt-get install ${packageName})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', packageName], { env, stdio: 'inherit' });
  if (!existsSync(program)) throw new Error(`apt-get installed ${packageName}, but ${program} is still missing`);
  stopSystemService(packageName);
  return program;
}

/** Best effort: where nothing started the service (a container's policy-rc.d), there is nothing to stop. */
function stopSystemService(name: string): void {
  try {
    execFileSync('service', [name, 'stop'], { stdio: 'ignore' });
  } catch {
    // No service command, or the service was not running.
  }
}
