import pino, { type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/** Structured JSON logs; credentials and signatures never reach them. */
export function createLogger(level: LevelWithSilent): Logger {
  return pino({
    level,
    redact: {
      paths: ["req.headers.authorization", "req.headers.cookie", "*.privateKey", "*.adminToken"],
      censor: "[redacted]",
    },
  });
}
