import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase } from './runtime/db/client.js';
const sql = connectDatabase('postgres://postgres@127.0.0.1:5432/bk_pop', { max: 1 });
await sql.begin('isolation level repeatable read read only', async (tx) => {
  for (const t of ['public.events', 'public.favorites', 'public.prospects', 'public.users']) {
    const r = await tx.unsafe(`copy ${t} to stdout`).readable();
    let n = 0;
    for await (const chunk of r) { n += chunk.length; await sleep(5); }
    console.log(t, n);
  }
});
await sql.end();
