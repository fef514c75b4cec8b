/**
 * Progress of long work on stderr: one line that updates in place on a terminal, plain lines
 * otherwise (a log file or a CI console gets one line per tenth of the way and one at the end).
 */

export interface Progress {
  /** `done` of `total` items of `what` are through. */
  update(done: number): void;
  /** The last line: the work is over. */
  finish(summary: string): void;
}

interface Output {
  isTTY?: boolean;
  write(text: string): unknown;
}

export function progress(what: string, total: number, out: Output = process.stderr): Progress {
  let shownTenth = -1;
  return {
    update(done) {
      if (out.isTTY) return void out.write(`\r\x1b[2K${what}: ${done} of ${total}`);
      const tenth = Math.floor((done * 10) / Math.max(total, 1));
      if (tenth === shownTenth || done >= total) return;
      shownTenth = tenth;
      out.write(`${what}: ${done} of ${total}\n`);
    },
    finish(summary) {
      out.write(out.isTTY ? `\r\x1b[2K${summary}\n` : `${summary}\n`);
    },
  };
}
