/**
 * serve, worker and listen shut down gracefully on a signal (untilSignal); any other command just
 * exits (exitOnSignal), and the exit hook stops an embedded PostgreSQL it started.
 */

/** A signal this soon after the first is the same event arriving twice (see untilSignal). */
const REPEATED_SIGNAL_MS = 1000;

export function exitOnSignal(signal: NodeJS.Signals): void {
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/** What every command does on SIGINT or SIGTERM until it asks for untilSignal. */
export function exitOnSignals(): void {
  process.on('SIGINT', exitOnSignal);
  process.on('SIGTERM', exitOnSignal);
}

/**
 * Resolves on the first SIGINT or SIGTERM, taking over from exitOnSignal; a later one exits at
 * once. Only Cadence's own handlers come and go: under tsx's command the process also has one
 * that tells tsx the signal arrived, and without it tsx kills the process 60 ms later. tsx may
 * pass a signal on once more, so a repeat within REPEATED_SIGNAL_MS is the same one.
 */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const shutDown = () => {
      const first = Date.now();
      const again = (signal: NodeJS.Signals) => {
        if (Date.now() - first > REPEATED_SIGNAL_MS) exitOnSignal(signal);
      };
      replaceSignalHandler(shutDown, again);
      resolve();
    };
    replaceSignalHandler(exitOnSignal, shutDown);
  });
}

/**
 * Adds before it removes: a signal with no listener left stops Node's watch on it, and a signal
 * that had arrived but was not yet handled is then lost.
 */
function replaceSignalHandler(current: (signal: NodeJS.Signals) => void, next: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, next);
    process.off(signal, current);
  }
}
