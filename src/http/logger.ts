import pino, { type Logger, type LevelWithSilent } from "pino";
import { prettyStream } from "./prettyLog.js";

export type { Logger };

/**
 * Structured JSON logs on stderr (stdout stays for what the command prints), or readable lines for a
 * person at a terminal with `pretty`; credentials never reach them.
 */
export function createLogger(level: LevelWithSilent, pretty = false): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ["req.headers.authorization", "req.headers.cookie", "*.privateKey", "*.adminToken"],
        censor: "[redacted]",
      },
    },
    pretty ? prettyStream(process.stderr) : pino.destination({ dest: 2, sync: false }),
  );
}
