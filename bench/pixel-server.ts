/**
 * The tracking pixel's ceiling: a bare Hono server whose `GET /t/o/:file` answers the same
 * 43-byte GIF with the same headers as Cadence's pixel route, and does nothing else (no token
 * check, no database). Started by bench/mail-pixel.ts with PORT, and an IPC channel so that it
 * goes when the benchmark process does.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { TRANSPARENT_GIF } from '../runtime/mail/tracking/index.js';

const port = Number(process.env.PORT);
const gif = new Uint8Array(TRANSPARENT_GIF);
const app = new Hono();
app.get('/t/o/:file', (c) => c.body(gif, 200, { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'Content-Type': 'image/gif' }));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });

function shutDown(): void {
  server.close(() => process.exit(0));
}
process.once('SIGTERM', shutDown);
process.once('SIGINT', shutDown);
process.once('disconnect', shutDown);
