/** The stack's log, kept for what it says at level error or above: a finding even when the answer was right. */
import { Writable } from "node:stream";

/** A stream for pino that keeps each error-or-worse line (as `part: message error`) in `lines`. */
export function errorLogCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        try {
          const entry = JSON.parse(line) as {
            level?: number;
            msg?: string;
            err?: { message?: string };
            part?: string;
          };
          if ((entry.level ?? 0) >= 50)
            lines.push(`${entry.part ?? "?"}: ${entry.msg ?? ""} ${entry.err?.message ?? ""}`.trim());
        } catch {
          lines.push(line);
        }
      }
      done();
    },
  });
  return { stream, lines };
}
