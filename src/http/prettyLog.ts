/**
 * Log lines for a person at a terminal: pino's JSON lines turned into "time level part message",
 * with the few fields worth reading after them. JSON stays the format anywhere else (files,
 * collectors), where each line must parse.
 */
import { Writable } from "node:stream";

const LEVELS: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const COLOURS: Record<number, string> = { 40: "\x1b[33m", 50: "\x1b[31m", 60: "\x1b[31m", 20: "\x1b[2m" };
/** Fields that are the line's frame, not what it says. */
const FRAME = new Set(["level", "time", "pid", "hostname", "part", "msg", "reqId"]);

/** One JSON log line as one readable line; a line that is not JSON comes through as it is. */
export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = Number(entry.level);
  const time = new Date(Number(entry.time)).toISOString().slice(11, 19);
  const word = (LEVELS[level] ?? String(entry.level)).padEnd(5);
  const err = entry.err as { message?: string } | undefined;
  const fields = Object.entries(entry)
    .filter(([key]) => !FRAME.has(key) && key !== "err")
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const text = [
    time,
    word,
    String(entry.part ?? "castnet").padEnd(9),
    entry.msg ?? "",
    ...fields,
    ...(err?.message ? [`(${err.message})`] : []),
  ].join(" ");
  const paint = colour ? COLOURS[level] : undefined;
  return paint ? `${paint}${text}\x1b[0m` : text;
}

/** A stream pino writes JSON lines to, writing readable lines to `out`. */
export function prettyStream(out: NodeJS.WritableStream & { isTTY?: boolean }): Writable {
  let rest = "";
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop()!;
      for (const line of lines) if (line !== "") out.write(`${prettyLine(line, out.isTTY === true)}\n`);
      done();
    },
  });
}
