#!/usr/bin/env node
// The `cadence` command: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import process from 'node:process';
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// Cadence's processes allocate fast and keep little: a worker's import or bulk chunk, or `serve`
// rendering pages of 250-attribute documents to 50 clients, keeps about 60 MB live, but V8 by
// default lets the heap grow to four times what the last full collection kept before collecting
// again, so RSS rose by 200 MB or more of garbage (issue #26). Growing by 60% instead kept an
// import's growth near 65 MB for the same CPU (30% kept 50 MB, but cost a fifth more CPU). An
// operator's own --heap-growing-percent on node's command line wins (0: V8's own growth). Set
// before tsx's loader thread starts, so that its heap grows the same way.
const HEAP_GROWING_PERCENT = 60;
const given = process.execArgv.some((flag) => /^--heap[-_]growing[-_]percent/.test(flag));
if (!given) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

register();
await import('../runtime/cli/main.ts');
