/**
 * What `castnet start` shows of the long work of a start besides seeding: the migrations of each
 * part's database and the hub's catch-up with the chain and the registry. The parts only report
 * numbers (a callback in their options); these turn them into Progress lines.
 */
import type { CatchUpProgress } from "../hub/follow/follower.js";
import type { MigrationProgress } from "../storage/index.js";
import { type Output, type Progress, progress } from "./progress.js";

/** "migrations: hub 1 of 2" as they apply, then "migrations: hub: 2 applied". */
export function migrationLines(part: string, out: Output = process.stderr): MigrationProgress {
  let shown: Progress | undefined;
  return (applied, pending) => {
    shown ??= progress(`migrations: ${part}`, pending, out);
    if (applied < pending) shown.update(applied);
    else shown.finish(`migrations: ${part}: ${pending} applied`);
  };
}

/**
 * "hub catching up with the chain: block 40 of 120" until the head of the start, and the registry's
 * transfers merged so far (the registry does not say how many it holds), each then one line
 * saying it is caught up.
 */
export function catchUpLines(
  out: Output = process.stderr,
): (source: "chain" | "registry", catchUp: CatchUpProgress) => void {
  const shown: Partial<Record<"chain" | "registry", Progress>> = {};
  return (source, { done, total, finished }) => {
    const what =
      source === "chain"
        ? "hub catching up with the chain: block"
        : "hub catching up with the registry: transfers";
    const line = (shown[source] ??= progress(what, total, out));
    if (!finished) return line.update(done);
    line.finish(
      source === "chain"
        ? `hub caught up with the chain at block ${done}`
        : `hub caught up with the registry: ${done} transfers merged`,
    );
  };
}
