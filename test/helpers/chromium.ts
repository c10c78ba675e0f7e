import { ensureDebianProgram } from './debian-packages.js';

/**
 * Debian's Chromium for browser tests. The test setup installs it when it is missing and the
 * tests run as root (CI machines start without it); otherwise it says how to install it.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium(): string {
  return ensureDebianProgram(CHROMIUM_PATH, 'chromium', 'CHROMIUM_PATH');
}

/**
 * Flags for a quiet headless Chromium: no background calls home, and no name resolved except
 * loopback, so a test can never reach an outside host.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
