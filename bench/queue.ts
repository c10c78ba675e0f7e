// Each part of the benchmark starts from an empty job queue: whatever an earlier part left in
// graphile-worker's queue (deliveries not waited for, sends of its sequences' first steps, steps
// due a day later, retries) belongs to orgs no later part uses, and would otherwise take the next
// part's worker slots and CPU. No worker runs between parts, so the leftovers are dropped, and
// the part says how many it dropped, by task.
import type postgres from 'postgres';

/** Deletes every job in the queue; a line saying what was dropped (or that it was empty). */
export async function emptyQueue(sql: postgres.Sql): Promise<string> {
  const dropped = await sql<{ task: string; n: number }[]>`
    with gone as (delete from graphile_worker._private_jobs returning task_id)
    select t.identifier as task, count(*)::int as n from gone join graphile_worker._private_tasks t on t.id = gone.task_id
     group by t.identifier order by n desc, t.identifier`;
  // Named queues a dropped job had locked stay locked otherwise.
  await sql`update graphile_worker._private_job_queues set locked_at = null, locked_by = null where locked_by is not null`;
  if (!dropped.length) return 'job queue empty at the start';
  const total = dropped.reduce((sum, d) => sum + d.n, 0);
  return `job queue emptied at the start: dropped ${total} jobs left by earlier parts (${dropped.map((d) => `${d.task} ${d.n}`).join(', ')})`;
}
