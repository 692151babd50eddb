import { pino, type Logger, type LoggerOptions } from 'pino';

/** Fields never written to a log line, whatever logs them. */
export const redactPaths = [
  'password',
  '*.password',
  '*.*.password',
  'newPassword',
  '*.newPassword',
  'oldPassword',
  '*.oldPassword',
  'confirmPassword',
  '*.confirmPassword',
  'currentPassword',
  '*.currentPassword',
  'token',
  '*.token',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'access_token',
  '*.access_token',
];

export function loggerOptions(
  level: string,
  pretty = process.stdout.isTTY === true,
): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss' },
          },
        }
      : {}),
  };
}

export function createLogger(level = 'info', pretty?: boolean): Logger {
  return pino(loggerOptions(level, pretty));
}

export type { Logger };

/**
 * A logger writing each JSON line to `write` (e.g. a worker thread handing its lines to the
 * thread that owns the real destination), with the same level, redaction and `base` fields.
 */
export function createLineLogger(
  level: string,
  write: (line: string) => void,
  base: Record<string, unknown> = {},
): Logger {
  return pino({ ...loggerOptions(level, false), base: { pid: process.pid, ...base } }, { write });
}
