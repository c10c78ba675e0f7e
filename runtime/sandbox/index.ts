// Cadence as a local sandbox for integrations: `cadence listen` (listen.ts) prints and forwards an org's events as they commit.
export { LISTEN_WEBHOOK_ID, parseListenArguments, runListen, type EventPattern, type ListenOptions, type ListenOutput } from './listen.js';
