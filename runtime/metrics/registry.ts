import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A process's own metrics registry, with Node's default metrics (event-loop delay, heap and
 * resident memory, CPU, handles, garbage collection). One per process, made by its composition
 * root and handed to what adds metrics to it: prom-client's global registry would be state shared
 * by every server and worker a test file starts in one process.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
