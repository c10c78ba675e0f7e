// Decides which PostgreSQL Cadence talks to: the one named by DATABASE_URL, or its own.
import { startEmbeddedPostgres } from './embedded.js';

export interface DatabaseEnv {
  DATABASE_URL?: string;
  /** Where the embedded server keeps its data when DATABASE_URL is not set. */
  CADENCE_DATA_DIR?: string;
}

export interface ResolvedDatabase {
  url: string;
  /** True when the url points at an embedded server (started here or by another process). */
  embedded: boolean;
  /** Stops the embedded server if this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

export async function resolveDatabase(env: DatabaseEnv, log?: (line: string) => void): Promise<ResolvedDatabase> {
  if (env.DATABASE_URL) {
    return { url: env.DATABASE_URL, embedded: false, stop: async () => {} };
  }
  const dataDir = env.CADENCE_DATA_DIR ?? '.data';
  const server = await startEmbeddedPostgres({ dataDir, onLog: log });
  if (!server.startedHere) log?.(`using the embedded PostgreSQL already running on ${dataDir}`);
  return { url: server.url, embedded: true, stop: server.stop };
}
