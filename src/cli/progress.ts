/**
 * Progress of long work on stderr: one line that updates in place on a terminal, plain lines
 * otherwise (a log file or a CI console gets one line per tenth of the way and one at the end).
 */

export interface Progress {
  /** `done` of `total` items are through. */
  update(done: number): void;
  /** The last line: the work is over. */
  finish(summary: string): void;
}

export interface Output {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * `what` leads every line, as in "seeding the demo:" → "seeding the demo: 3 of 20". Without a
 * total there is no tenth to show, so plain output gets the last line only.
 */
export function progress(what: string, total: number | undefined, out: Output = process.stderr): Progress {
  let shownTenth = -1;
  return {
    update(done) {
      const line = total === undefined ? `${what} ${done}` : `${what} ${done} of ${total}`;
      if (out.isTTY) return void out.write(`\r\x1b[2K${line}`);
      if (total === undefined) return;
      const tenth = Math.floor((done * 10) / Math.max(total, 1));
      if (tenth === shownTenth || done >= total) return;
      shownTenth = tenth;
      out.write(`${line}\n`);
    },
    finish(summary) {
      out.write(out.isTTY ? `\r\x1b[2K${summary}\n` : `${summary}\n`);
    },
  };
}
