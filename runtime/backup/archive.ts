// The file format of backups and org exports: gzip'd lines, the first one a JSON manifest.
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { AdminError } from '../operator/index.js';

/** Where a backup or export is written: lines and streams go through gzip to the file. */
export interface ArchiveWriter {
  writeLine(line: string): Promise<void>;
  /** Copies `source` (text that ends with a newline, or nothing) into the archive as it comes. */
  writeStream(source: Readable): Promise<void>;
  /** Finishes the file; until then it exists only under a temporary name. */
  close(): Promise<void>;
  /** Removes what was written, after a failure. */
  abandon(): Promise<void>;
}

/**
 * Writes to `<path>.partial` and renames it at the end, so a failed or interrupted run never
 * leaves a file that looks complete. The file is opened first: a path that cannot be written is
 * an error before any work is done.
 */
export async function createArchive(path: string): Promise<ArchiveWriter> {
  const partial = `${path}.partial`;
  let file: FileHandle;
  try {
    file = await open(partial, 'w', 0o600);
  } catch (error) {
    throw new AdminError(`cannot write ${path}: ${(error as Error).message}`);
  }
  const gzip = createGzip();
  const written = pipeline(gzip, file.createWriteStream()).catch((error: Error) => {
    throw new AdminError(`cannot write ${path}: ${error.message}`);
  });
  // A failure shows up on the next write or at close; until then it must not be unhandled.
  written.catch(() => {});
  const write = async (chunk: string | Buffer) => {
    if (gzip.destroyed) await written;
    if (!gzip.write(chunk)) await Promise.race([once(gzip, 'drain'), written]);
  };
  return {
    writeLine: (line) => write(`${line}\n`),
    async writeStream(source) {
      for await (const chunk of source) await write(chunk as Buffer);
    },
    async close() {
      gzip.end();
      await written;
      await rename(partial, path);
    },
    async abandon() {
      gzip.destroy();
      await written.catch(() => {});
      await rm(partial, { force: true });
    },
  };
}

/** The lines of an archive, the manifest first; the file is read as they are taken. */
export interface ArchiveReader {
  /** The next line, or undefined at the end of the file. */
  nextLine(): Promise<string | undefined>;
  close(): void;
}

export function openArchive(path: string): ArchiveReader {
  const file = createReadStream(path);
  const gunzip = createGunzip();
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    lines.close();
  };
  file.on('error', fail);
  gunzip.on('error', fail);
  const lines = createInterface({ input: file.pipe(gunzip), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  return {
    async nextLine() {
      const next = await iterator.next();
      if (failure) throw new AdminError(`cannot read ${path}: ${failure.message}`);
      return next.done ? undefined : next.value;
    },
    close() {
      lines.close();
      file.destroy();
    },
  };
}

/** Reads the manifest line of an archive and checks it names the expected format. */
export async function readManifest<T extends { format: string; formatVersion: number }>(
  reader: ArchiveReader,
  path: string,
  format: string,
  formatVersion: number,
): Promise<T> {
  const first = await reader.nextLine();
  let manifest: T;
  try {
    manifest = JSON.parse(first ?? '') as T;
  } catch {
    throw new AdminError(`${path} is not a Cadence ${format} file (its first line is no JSON manifest)`);
  }
  if (manifest?.format !== format) throw new AdminError(`${path} is not a Cadence ${format} file (its manifest names ${JSON.stringify(manifest?.format)})`);
  if (manifest.formatVersion !== formatVersion) throw new AdminError(`${path} is ${format} format ${manifest.formatVersion}; this Cadence reads format ${formatVersion}`);
  return manifest;
}
