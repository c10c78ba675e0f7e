import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Where installs wait for each other. Test files run in parallel and each may install the
 * package it needs, but dpkg takes one install at a time and refuses the others at once; flock
 * queues them instead, and the program is looked for again once the lock is held, so a package
 * two files need is installed once.
 */
const INSTALL_LOCK = '/var/lock/cadence-test-apt.lock';

/**
 * The real component a test runs, from Debian's packages: `program` when it is there, else (as
 * root, as on CI machines, which start without them) installed from `debianPackage`; otherwise an
 * error saying how to install it or where to point `overrideVariable`.
 */
export function ensureDebianProgram(program: string, debianPackage: string, overrideVariable: string): string {
  if (existsSync(program)) return program;
  if (process.getuid?.() !== 0) {
    throw new Error(`${program} is missing: install Debian's ${debianPackage} package (apt-get install ${debianPackage}) or set ${overrideVariable}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // policy-rc.d on build machines keeps a package's own service from starting; tests start their own.
  const install = 'if [ ! -e "$1" ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 "$2"; fi';
  execFileSync('flock', [INSTALL_LOCK, 'sh', '-c', install, 'install', program, debianPackage], { env, stdio: 'inherit' });
  if (!existsSync(program)) throw new Error(`apt-get installed ${debianPackage}, but ${program} is still missing`);
  stopSystemService(debianPackage);
  return program;
}

/**
 * Where installing started the package's own service (no policy-rc.d to stop it), it is stopped:
 * it would hold the standard port, and tests run instances of their own. Best effort: where
 * nothing started it, there is nothing to stop.
 */
function stopSystemService(name: string): void {
  try {
    execFileSync('service', [name, 'stop'], { stdio: 'ignore' });
  } catch {
    // No service command, no such service, or it was not running.
  }
}
