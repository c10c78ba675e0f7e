import postgres from 'postgres';
const sql = postgres('postgres://postgres@127.0.0.1:5432/test', { max: 1, onnotice: () => {} , prepare: true});
const bad = new Date('2026-12-31T23:59:60Z');
const step = async (label, p) => { const t = setTimeout(() => { console.log('HUNG at', label); process.exit(1); }, 2000); try { const r = await p; console.log(label, 'ok', JSON.stringify(r)); } catch (e) { console.log(label, 'threw', e.message); } finally { clearTimeout(t); } };
for (let i = 0; i < 3; i++) {
  const c = await sql.reserve();
  const opened = c.unsafe("begin; select 1").then(() => undefined, (e) => e);
  await step('bad'+i, c`select ${bad}::timestamptz as at`);
  await step('opened'+i, opened);
  await step('rollback'+i, c.unsafe('rollback'));
  c.release();
  await step('after'+i, sql`select 1 as one`);
}
await sql.end();
