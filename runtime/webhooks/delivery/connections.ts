import { Agent } from 'node:https';

/**
 * Where a pooled connection goes and what it was checked against. A kept-alive socket is only
 * ever reused for a request with the same key, so it can never be one made to another address
 * (a name that now resolves elsewhere gets an agent, and sockets, of its own), nor one whose
 * certificate was checked against another host or trust.
 */
export interface ConnectionTarget {
  /** The address resolveDeliveryTarget approved: the only one connected to. */
  readonly address: string;
  readonly family: 4 | 6;
  readonly port: number;
  /** The URL's host: SNI (when a name) and what the certificate is checked against. */
  readonly hostname: string;
  /** Which trust verified the certificate: the bundled roots or a configured extra bundle. */
  readonly trust: string;
}

export interface ConnectionPoolOptions {
  /** Connections kept per target at most, open or idle; more requests queue in the agent. */
  readonly maxSockets: number;
  /** An idle connection is closed after this long: shorter than receivers commonly keep one (Node's 5 s). */
  readonly idleMs: number;
  /** Targets whose agents are kept; the least recently used one beyond this is retired. */
  readonly maxTargets: number;
}

export const DEFAULT_CONNECTION_POOL: ConnectionPoolOptions = { maxSockets: 32, idleMs: 2000, maxTargets: 256 };

/** One cached agent and the requests in flight on it, so a retired agent is destroyed only once they end. */
interface Entry {
  readonly agent: Agent;
  inFlight: number;
  retired: boolean;
}

/**
 * Kept-alive TLS connections of webhook deliveries: one https.Agent per checked target,
 * least recently used first out. Made by a worker at start and destroyed when it stops.
 */
export interface DeliveryConnections {
  /** Runs `send` with the target's agent, counting it in flight until it settles. */
  using<T>(target: ConnectionTarget, send: (agent: Agent) => Promise<T>): Promise<T>;
  /** Closes every connection, idle or not; later sends get new agents. */
  destroy(): void;
}

function keyOf(target: ConnectionTarget): string {
  return JSON.stringify([target.address, target.family, target.port, target.hostname, target.trust]);
}

export function deliveryConnections(options: ConnectionPoolOptions = DEFAULT_CONNECTION_POOL): DeliveryConnections {
  // Map iteration order is insertion order: re-inserting on use keeps the least recent first.
  const entries = new Map<string, Entry>();
  const retire = (entry: Entry) => {
    entry.retired = true;
    if (entry.inFlight === 0) entry.agent.destroy();
  };
  const entryFor = (key: string): Entry => {
    const found = entries.get(key);
    if (found) {
      entries.delete(key);
      entries.set(key, found);
      return found;
    }
    const entry: Entry = {
      agent: new Agent({ keepAlive: true, maxSockets: options.maxSockets, maxFreeSockets: options.maxSockets, timeout: options.idleMs, scheduling: 'lifo' }),
      inFlight: 0,
      retired: false,
    };
    entries.set(key, entry);
    for (const [oldKey, old] of entries) {
      if (entries.size <= options.maxTargets) break;
      entries.delete(oldKey);
      retire(old);
    }
    return entry;
  };
  return {
    async using(target, send) {
      const entry = entryFor(keyOf(target));
      entry.inFlight++;
      try {
        return await send(entry.agent);
      } finally {
        entry.inFlight--;
        if (entry.retired && entry.inFlight === 0) entry.agent.destroy();
      }
    },
    destroy() {
      for (const entry of entries.values()) retire(entry);
      entries.clear();
    },
  };
}
