import type { TestApi } from './api.js';
import { until } from './wait.js';

/**
 * Waits until every open and click the server has answered for the org is counted on its
 * mailing: the server's buffer flushed, and the org's tracking_hits folded by a worker (a
 * fold deletes its hits as it commits its counts, so none left means all counted).
 */
export async function hitsFolded(api: TestApi, orgId: number, timeoutMs = 30_000): Promise<void> {
  await api.trackingHits.flush();
  await until(
    `the tracking hits of org ${orgId} to be folded`,
    async () => {
      const [row] = await api.sql<{ n: number }[]>`select count(*)::int as n from tracking_hits where org_id = ${orgId}`;
      return row!.n === 0 ? true : undefined;
    },
    timeoutMs,
  );
}
