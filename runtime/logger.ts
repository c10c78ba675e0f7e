import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs. Authorization headers and token-bearing fields are redacted wherever
 * they appear, so a careless log call cannot leak a credential.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'cadence' },
    redact: { paths: ['*.authorization', '*.token', '*.secret', '*.cleanupToken', 'headers.authorization'], censor: '[redacted]' },
  });
}
