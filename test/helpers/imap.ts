import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { imapFlowConnect, type ImapConnect } from '../../runtime/mail/sync/index.js';
import { ensureDebianProgram } from './debian-packages.js';
import { loopbackMailServers } from './mail-servers.js';

/**
 * A real IMAP server for tests (issue #16): Debian's dovecot on 127.0.0.1, run as an
 * unprivileged process with its own configuration and Maildirs in a temporary folder; every user exists,
 * with the password passwordFor gives.
 * The test setup installs dovecot-imapd when it is missing and the tests run as root (CI
 * machines start without it), as it does Chromium; otherwise it says how to install it.
 */
export const DOVECOT_PATH = process.env.DOVECOT_PATH ?? '/usr/sbin/dovecot';

/** Every login's password starts so: a test finding it anywhere (logs, events) found a leak. */
const PASSWORD_PREFIX = 'imap-secret-';

export function ensureDovecot(): string {
  return ensureDebianProgram(DOVECOT_PATH, 'dovecot-imapd', 'DOVECOT_PATH');
}

/** Who dovecot runs as: the current user, or as root the package's unprivileged `dovecot` user. */
function runAs(): { uid: number; gid: number; name: string; group: string } {
  if (process.getuid?.() !== 0) {
    const name = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
    const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
    return { uid: process.getuid!(), gid: process.getgid!(), name, group };
  }
  const uid = Number(execFileSync('id', ['-u', 'dovecot'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'dovecot'], { encoding: 'utf8' }));
  return { uid, gid, name: 'dovecot', group: execFileSync('id', ['-gn', 'dovecot'], { encoding: 'utf8' }).trim() };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function accepting(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`dovecot did not listen on 127.0.0.1:${port}`);
}

function configuration(dir: string, port: number, user: { uid: number; gid: number; name: string; group: string }): string {
  return `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
# Plain-text logins on loopback only: the server listens nowhere else.
disable_plaintext_auth = no
auth_mechanisms = plain login
# Refused logins answer at once (dovecot waits 2 s by default).
auth_failure_delay = 0
default_internal_user = ${user.name}
default_internal_group = ${user.group}
default_login_user = ${user.name}
first_valid_uid = ${user.uid}
mail_location = maildir:${dir}/mail/%u
# Every user exists; its password is ${PASSWORD_PREFIX}<the part before @> (passwordFor).
passdb {
  driver = static
  args = password=${PASSWORD_PREFIX}%n
}
userdb {
  driver = static
  args = uid=${user.uid} gid=${user.gid} home=${dir}/home/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service stats {
  chroot =
}
`;
}

/** The password the test server accepts for `user`: any user exists, with this password only. */
export function passwordFor(user: string): string {
  return `${PASSWORD_PREFIX}${user.split('@')[0]}`;
}

export interface ImapServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** Puts a raw RFC 5322 message into the user's INBOX with IMAP APPEND. */
  deliver(user: string, password: string, message: string): Promise<void>;
  close(): Promise<void>;
}

export async function startImapServer(): Promise<ImapServer> {
  const binary = ensureDovecot();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'cadence-dovecot-'));
  for (const sub of ['run', 'state', 'mail', 'home']) mkdirSync(join(dir, sub));
  const port = await freePort();
  writeFileSync(join(dir, 'dovecot.conf'), configuration(dir, port, user));
  chownTree(dir, user.uid, user.gid);
  const child: ChildProcess = spawn(binary, ['-F', '-c', join(dir, 'dovecot.conf')], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await accepting(port);
  return {
    host: '127.0.0.1',
    port,
    async deliver(name, password, message) {
      const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: name, pass: password }, logger: false });
      await client.connect();
      try {
        await client.append('INBOX', message.replace(/\r?\n/g, '\r\n'));
      } finally {
        await client.logout();
      }
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function chownTree(path: string, uid: number, gid: number): void {
  if (process.getuid?.() !== 0) return;
  chownSync(path, uid, gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, uid, gid);
    else chownSync(child, uid, gid);
  }
}

/**
 * The service's IMAP connection, with 127.0.0.1 on the address rule's allow-list, refusing any
 * other host: no test reaches an outside host.
 */
export const loopbackImapConnect: ImapConnect = (settings) => {
  if (settings.host !== '127.0.0.1') return Promise.reject(new Error(`a test tried to reach the IMAP host ${settings.host}`));
  return imapFlowConnect(loopbackMailServers)(settings);
};
