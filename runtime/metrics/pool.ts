import { Gauge, type Registry } from 'prom-client';
import type postgres from 'postgres';

/** postgres.js's connections by state, and the queries waiting for one. */
interface PoolState {
  readonly waiting: number;
  readonly idle: number;
  /** Running queries outside a transaction (pipelined or not). */
  readonly busy: number;
  /** Held by a transaction (sql.begin) or sql.reserve(), whether or not a query runs right now. */
  readonly reserved: number;
  readonly connecting: number;
}

/**
 * postgres.js keeps its pool's state in closures with no public way to read it; Cadence's patch
 * of it (patches/postgres+*.patch) adds `poolState()`, which reads the queues' lengths.
 */
function poolStateReader(sql: postgres.Sql): () => PoolState {
  const { poolState } = sql as unknown as { readonly poolState?: () => PoolState };
  if (typeof poolState !== 'function') throw new Error('postgres.js has no poolState(): is patches/postgres+*.patch applied (npm install runs patch-package)?');
  return poolState;
}

/** Gauges of a process's database pool, read at each scrape: connections in use and queries waiting for one. */
export function observePool(registry: Registry, sql: postgres.Sql): void {
  const read = poolStateReader(sql);
  new Gauge({
    name: 'cadence_db_pool_connections',
    help: "Connections of the process's database pool by state: busy (running a query), reserved (held by a transaction), idle, connecting",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const state = read();
      for (const name of ['busy', 'reserved', 'idle', 'connecting'] as const) this.set({ state: name }, state[name]);
    },
  });
  new Gauge({
    name: 'cadence_db_pool_waiting_queries',
    help: 'Queries and transactions waiting for a connection of the pool',
    registers: [registry],
    collect() {
      this.set(read().waiting);
    },
  });
  new Gauge({
    name: 'cadence_db_pool_max_connections',
    help: 'The most connections the pool opens (DATABASE_POOL_SIZE for the API)',
    registers: [registry],
    collect() {
      this.set(sql.options.max);
    },
  });
}
