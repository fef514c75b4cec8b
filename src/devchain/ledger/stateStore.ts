/**
 * The modelled state kept with its history: each key's value as written by each block, so that the
 * state as of any block is the last value at or before it.
 */
import type { StateReader } from "../contracts/state.js";
import { builderOf, type QuerySource, runCompiled } from "../../storage/index.js";
import type { DevchainDb, DevchainTables } from "../tables.js";

/** The state as the block `blockNumber` left it (read in a write's transaction, or as committed). */
export function stateAt(source: QuerySource<DevchainTables>, blockNumber: number): StateReader {
  const db = builderOf(source);
  return {
    // Compiled once (src/storage/compiled.ts): a call reads several keys.
    async get(key) {
      const [row] = await runCompiled(
        source,
        "devchain state at block",
        () =>
          db
            .selectFrom("chain_state")
            .select("value")
            .where("key", "=", key)
            .where("block_number", "<=", blockNumber)
            .orderBy("block_number", "desc")
            .limit(1),
        [key, blockNumber, 1],
      );
      return row?.value;
    },
  };
}

/** Records what the block `blockNumber` wrote. */
export async function writeState(
  trx: DevchainDb,
  blockNumber: number,
  writes: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [key, value] of writes) {
    await trx
      .insertInto("chain_state")
      .values({ key, block_number: blockNumber, value })
      .onConflict((oc) => oc.columns(["key", "block_number"]).doUpdateSet({ value }))
      .execute();
  }
}
