import { type Kysely, sql } from "kysely";
import { encodeAbiParameters, encodeEventTopics, getAddress, type Hex } from "viem";
import type { Migration } from "../../storage/index.js";
import type { DevchainTables } from "../tables.js";
import {
  IdRegisterEventType,
  OnChainEvent,
  OnChainEventType,
  SignerEventType,
} from "../../protocol/generated/onchain_event.js";
import { idRegistryAbi, keyRegistryAbi, storageRegistryAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";

/**
 * A chain kept by the first devchain (0001's tables: each transaction's one event, and state rows)
 * carried into the ledger (0002's tables): each event becomes the log the contract emits, with its
 * block, log index and transaction hash kept; each transaction an operator write of the same hash;
 * the state is replayed block by block. Then 0001's tables go. A transaction still pending (only a
 * crash leaves one: a clean stop mines what is pending) has no event to carry and is not kept. The
 * state's keys are spelled here as
 * src/devchain/contracts/state.ts spelled them when this migration was written.
 */
const OPERATOR = "0x00000000000000000000000000000000ca57ae70";

const hex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString("hex")}`;
const bytes = (value: Hex) => Buffer.from(value.slice(2), "hex");

interface Log {
  address: string;
  topics: Hex[];
  data: Hex;
}

/** The log an event of the first devchain stands for, and what its transaction did. */
function logOf(event: OnChainEvent): { log: Log; action: Record<string, unknown> } {
  const fid = BigInt(event.fid);
  if (event.type === OnChainEventType.EVENT_TYPE_ID_REGISTER) {
    const body = event.idRegisterEventBody!;
    if (body.eventType !== IdRegisterEventType.REGISTER)
      throw new Error("the first devchain only registered fids");
    const to = getAddress(hex(body.to));
    const recovery = getAddress(hex(body.recoveryAddress));
    return {
      log: {
        address: CONTRACT_ADDRESSES.idRegistry,
        topics: encodeEventTopics({
          abi: idRegistryAbi,
          eventName: "Register",
          args: { to, id: fid },
        }) as Hex[],
        data: encodeAbiParameters([{ type: "address" }], [recovery]),
      },
      action: { action: "register", to, recovery },
    };
  }
  if (event.type === OnChainEventType.EVENT_TYPE_SIGNER) {
    const body = event.signerEventBody!;
    const key = hex(body.key);
    if (body.eventType === SignerEventType.ADD) {
      return {
        log: {
          address: CONTRACT_ADDRESSES.keyRegistry,
          topics: encodeEventTopics({
            abi: keyRegistryAbi,
            eventName: "Add",
            args: { fid, keyType: body.keyType, key },
          }) as Hex[],
          data: encodeAbiParameters(
            [{ type: "bytes" }, { type: "uint8" }, { type: "bytes" }],
            [key, body.metadataType, hex(body.metadata)],
          ),
        },
        action: {
          action: "addKey",
          fid: event.fid,
          keyType: body.keyType,
          key,
          metadataType: body.metadataType,
          metadata: hex(body.metadata),
        },
      };
    }
    return {
      log: {
        address: CONTRACT_ADDRESSES.keyRegistry,
        topics: encodeEventTopics({ abi: keyRegistryAbi, eventName: "Remove", args: { fid, key } }) as Hex[],
        data: encodeAbiParameters([{ type: "bytes" }], [key]),
      },
      action: { action: "removeKey", fid: event.fid, key },
    };
  }
  const body = event.storageRentEventBody!;
  return {
    log: {
      address: CONTRACT_ADDRESSES.storageRegistry,
      topics: encodeEventTopics({
        abi: storageRegistryAbi,
        eventName: "Rent",
        args: { payer: getAddress(hex(body.payer)), fid },
      }) as Hex[],
      data: encodeAbiParameters([{ type: "uint256" }], [BigInt(body.units)]),
    },
    action: { action: "rent", fid: event.fid, units: body.units },
  };
}

/** The state a block's events leave, written as the ledger keeps it: key → value at that block. */
class Replay {
  readonly values = new Map<string, string>();
  private readonly written = new Map<string, string>();

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  set(key: string, value: string): void {
    this.values.set(key, value);
    this.written.set(key, value);
  }

  take(): Map<string, string> {
    const block = new Map(this.written);
    this.written.clear();
    return block;
  }

  private count(fid: bigint, state: number): bigint {
    return BigInt(this.get(`keys/${fid}/${state}/count`) ?? "0");
  }

  append(fid: bigint, state: number, key: Hex): void {
    const index = this.count(fid, state);
    this.set(`keys/${fid}/${state}/at/${index}`, key);
    this.set(`keys/${fid}/${state}/index/${key}`, index.toString());
    this.set(`keys/${fid}/${state}/count`, (index + 1n).toString());
  }

  /** KeyRegistry's removal from a list: the last key takes the removed one's place. */
  take_(fid: bigint, state: number, key: Hex): void {
    const last = this.count(fid, state) - 1n;
    const index = BigInt(this.get(`keys/${fid}/${state}/index/${key}`)!);
    const moved = this.get(`keys/${fid}/${state}/at/${last}`)!;
    this.set(`keys/${fid}/${state}/at/${index}`, moved);
    this.set(`keys/${fid}/${state}/index/${moved}`, index.toString());
    this.set(`keys/${fid}/${state}/count`, last.toString());
  }

  apply(event: OnChainEvent): void {
    const fid = BigInt(event.fid);
    if (event.type === OnChainEventType.EVENT_TYPE_ID_REGISTER) {
      const body = event.idRegisterEventBody!;
      const to = hex(body.to).toLowerCase();
      this.set("id/counter", fid.toString());
      this.set(`id/of/${to}`, fid.toString());
      this.set(`id/custody/${fid}`, to);
      this.set(`id/recovery/${fid}`, hex(body.recoveryAddress).toLowerCase());
    } else if (event.type === OnChainEventType.EVENT_TYPE_SIGNER) {
      const body = event.signerEventBody!;
      const key = hex(body.key).toLowerCase() as Hex;
      if (body.eventType === SignerEventType.ADD) {
        this.append(fid, 1, key);
        this.set(`key/${fid}/${key}`, `1,${body.keyType}`);
      } else {
        this.take_(fid, 1, key);
        this.append(fid, 2, key);
        this.set(`key/${fid}/${key}`, `2,${body.keyType}`);
      }
    } else {
      const rented = BigInt(this.get("storage/rented") ?? "0") + BigInt(event.storageRentEventBody!.units);
      this.set("storage/rented", rented.toString());
    }
  }
}

/** 0001's two tables read here, as they were. */
interface FirstTables {
  chain_transactions: {
    seq: number;
    hash: Uint8Array;
    kind: string;
    block_number: number | null;
    tx_index: number | null;
  };
  chain_events: { block_number: number; log_index: number; tx_seq: number; event: Uint8Array };
}

export const ledgerFromEvents: Migration = {
  async up(kysely) {
    // The logs' table as 0002 made it (0004 adds their JSON).
    const db = kysely as unknown as Kysely<
      FirstTables &
        Omit<DevchainTables, "chain_blocks" | "chain_logs"> & {
          chain_logs: Omit<DevchainTables["chain_logs"], "json">;
        }
    >;
    const txs = await db.selectFrom("chain_transactions").selectAll().orderBy("seq").execute();
    const events = await db
      .selectFrom("chain_events")
      .selectAll()
      .orderBy("block_number")
      .orderBy("log_index")
      .execute();
    const eventsOf = new Map<number, OnChainEvent[]>();
    for (const row of events) {
      const event = OnChainEvent.decode(new Uint8Array(row.event));
      eventsOf.set(Number(row.tx_seq), [...(eventsOf.get(Number(row.tx_seq)) ?? []), event]);
    }
    const replay = new Replay();
    let block: number | undefined;
    const flush = async () => {
      if (block === undefined) return;
      for (const [key, value] of replay.take())
        await db.insertInto("chain_state").values({ key, block_number: block, value }).execute();
    };
    for (const tx of txs) {
      if (tx.block_number === null) continue;
      const seq = Number(tx.seq);
      const mined = Number(tx.block_number);
      const own = eventsOf.get(seq) ?? [];
      const converted = own.map(logOf);
      if (mined !== block) {
        await flush();
        block = mined;
      }
      await db
        .insertInto("chain_txs")
        .values({
          seq,
          hash: tx.hash,
          sender: OPERATOR,
          recipient: null,
          nonce: 0,
          value: "0",
          input: Buffer.alloc(0),
          type: 0,
          gas: 0,
          gas_price: "0",
          max_fee: null,
          max_priority_fee: null,
          raw: null,
          operator: JSON.stringify(converted[0]!.action),
          block_number: mined,
          tx_index: tx.tx_index,
          status: 1,
          gas_used: 0,
          effective_gas_price: "0",
          output: Buffer.alloc(0),
        })
        .execute();
      for (const [i, { log }] of converted.entries()) {
        const event = own[i]!;
        await db
          .insertInto("chain_logs")
          .values({
            block_number: event.blockNumber,
            log_index: event.logIndex,
            tx_seq: seq,
            address: log.address.toLowerCase(),
            topic0: log.topics[0] ? bytes(log.topics[0]) : null,
            topic1: log.topics[1] ? bytes(log.topics[1]) : null,
            topic2: log.topics[2] ? bytes(log.topics[2]) : null,
            topic3: log.topics[3] ? bytes(log.topics[3]) : null,
            data: bytes(log.data),
          })
          .execute();
        replay.apply(event);
      }
    }
    await flush();
    for (const table of [
      "chain_events",
      "chain_storage",
      "chain_signers",
      "chain_fids",
      "chain_transactions",
    ])
      await sql`drop table ${sql.table(table)}`.execute(db);
  },
};
