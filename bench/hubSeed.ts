/**
 * Seeds a hub's SQLite file for the read benchmark: `node --import tsx bench/hubSeed.ts <path>
 * <count> <per fid>`, run by bench/hub.ts in a child process of its own.
 */
import type { Insertable } from "kysely";
import { StoreType } from "../src/hub/data/keys.js";
import { hubMigrations } from "../src/hub/migrations/index.js";
import type { HubTables } from "../src/hub/data/tables.js";
import { generateEd25519KeyPair } from "../src/protocol/ed25519.js";
import { MessageType } from "../src/protocol/generated/message.js";
import { writeMessageJson } from "../src/protocol/json/index.js";
import { decodeMessage, makeTsHash } from "../src/protocol/message.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import { migrate, openDatabase } from "../src/storage/index.js";
import { castData, FIRST_SEEDED_FID, signer } from "./casts.js";

const SEED_BATCH = 2_000;

/**
 * Messages written straight through the hub's tables in big transactions, as the merge would write
 * them (the read benchmark only reads): `perFid` casts of each fid from FIRST_SEEDED_FID on.
 */
async function seed(path: string, count: number, perFid: number): Promise<void> {
  const database = openDatabase<HubTables>({ engine: "sqlite", path });
  await migrate(database, "hub", hubMigrations);
  const signers = Array.from({ length: 64 }, () => signer(generateEd25519KeyPair().privateKey));
  const start = currentProtocolTime() - 1_000_000;
  // Fid by fid, oldest first: the rows arrive in primary-key order, as a long-lived hub holds them.
  for (let from = 0; from < count; from += SEED_BATCH) {
    const rows: Insertable<HubTables["hub_messages"]>[] = [];
    for (let i = from; i < Math.min(count, from + SEED_BATCH); i++) {
      const fid = FIRST_SEEDED_FID + Math.floor(i / perFid);
      const timestamp = start + (i % perFid);
      const bytes = signers[i % 64]!(castData(fid, timestamp, `seeded cast ${i % perFid} of fid ${fid}`));
      const { message } = decodeMessage(bytes);
      rows.push({
        fid,
        store: StoreType.CASTS,
        ts_hash: makeTsHash(timestamp, message.hash),
        set_key: message.hash,
        type: MessageType.CAST_ADD,
        timestamp,
        hash: message.hash,
        signer: message.signer,
        kind: null,
        target: null,
        target_fid: null,
        message: bytes,
        json: writeMessageJson(message, NEUTRAL),
        json_profile: NEUTRAL.name,
      });
    }
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 100)
        await trx
          .insertInto("hub_messages")
          .values(rows.slice(i, i + 100))
          .execute();
    });
  }
  const fids = Math.ceil(count / perFid);
  for (let i = 0; i < fids; i += 1000) {
    await database.db
      .insertInto("hub_store_counts")
      .values(
        Array.from({ length: Math.min(1000, fids - i) }, (_, j) => ({
          fid: FIRST_SEEDED_FID + i + j,
          store: StoreType.CASTS,
          count: Math.min(perFid, count - (i + j) * perFid),
        })),
      )
      .execute();
  }
  await database.close();
}

const [path, count, perFid] = process.argv.slice(2);
await seed(path!, Number(count), Number(perFid));
