// Where the embedded PostgreSQL keeps its cluster: `<dataDir>/pg`, or a place its account can reach.
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readlink, realpath, rmdir, stat, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { canReach, type PostgresAccount } from './postgres-account.js';

/** Root-owned, like SHARED_BINARIES_ROOT; each cluster in it belongs to user postgres alone. */
export const SHARED_CLUSTERS_ROOT = '/var/lib/cadence/clusters';

/**
 * The cluster lives in `<dataDir>/pg`. Run by root, the server runs as `account`, which must
 * pass through every folder above it; when it cannot (a clone in root's 0700 home, or in a
 * `mktemp -d` folder), the cluster lives in SHARED_CLUSTERS_ROOT instead, in a folder named
 * after dataDir's real path, and `<dataDir>/pg` is a symbolic link to it. The private folder's
 * permissions stay as they are.
 */
export async function clusterDirectory(dataDir: string, account: PostgresAccount | undefined): Promise<string> {
  const inDataDir = resolve(dataDir, 'pg');
  if (!account) return inDataDir;
  await letAccountEnter(dataDir);
  const linked = await readlink(inDataDir).catch(() => undefined);
  if (linked !== undefined) return resolve(dirname(inDataDir), linked);
  const realDataDir = await realpath(dataDir);
  if (await canReach(account, realDataDir)) return join(realDataDir, 'pg');

  if (!(await isEmptyOrMissing(inDataDir))) {
    throw new Error(
      `user ${account.name} cannot reach ${realDataDir}, which already holds a PostgreSQL cluster in pg/; ` +
        'move the folder somewhere it can reach, or set CADENCE_DATA_DIR to such a folder',
    );
  }
  // An empty pg/ is what a start that failed here before left behind.
  await rmdir(inDataDir).catch(() => {});
  const elsewhere = join(SHARED_CLUSTERS_ROOT, createHash('sha256').update(realDataDir).digest('hex').slice(0, 16));
  for (const folder of [dirname(SHARED_CLUSTERS_ROOT), SHARED_CLUSTERS_ROOT]) {
    await mkdir(folder, { recursive: true });
    await chmod(folder, 0o755);
  }
  await symlink(elsewhere, inDataDir).catch((error: NodeJS.ErrnoException) => {
    // Another process starting on the same folder made the link first: the same one.
    if (error.code !== 'EEXIST') throw error;
  });
  return elsewhere;
}

/** Search permission (o+x, g+x) on dataDir itself, Cadence's own folder: others still cannot list it. */
async function letAccountEnter(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const { mode } = await stat(dataDir);
  if ((mode & 0o011) !== 0o011) await chmod(dataDir, mode | 0o011);
}

async function isEmptyOrMissing(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}
