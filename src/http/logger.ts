import pino, { type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/**
 * Structured JSON logs on stderr (stdout stays for what the command prints); credentials never
 * reach them.
 */
export function createLogger(level: LevelWithSilent): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ["req.headers.authorization", "req.headers.cookie", "*.privateKey", "*.adminToken"],
        censor: "[redacted]",
      },
    },
    pino.destination({ dest: 2, sync: false }),
  );
}
