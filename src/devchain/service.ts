/**
 * The devchain's rules: the id, key and storage registries as the contracts enforce them, writes as
 * transactions that wait for the next block, and each mined transaction turned into the on-chain
 * event a hub reads.
 */
import { toHex } from "../protocol/hex.js";
import { randomBytes } from "node:crypto";
import { encodePacked, getAddress, hexToBytes, isAddress, keccak256, zeroAddress } from "viem";
import type { Logger } from "../http/index.js";
import {
  IdRegisterEventType,
  OnChainEvent,
  OnChainEventType,
  SignerEventType,
} from "../protocol/generated/onchain_event.js";
import {
  KEY_TYPE_ED25519,
  METADATA_TYPE_SIGNED_KEY_REQUEST,
  OP_MAINNET_CHAIN_ID,
} from "../protocol/contracts.js";
import { toProtocolTime } from "../protocol/time.js";
import { type Database, serializedTransaction } from "../storage/index.js";
import { BlockWatcher } from "./blockWatcher.js";
import {
  type Account,
  type ChainClient,
  type ChainWriter,
  type Hex,
  type KeyAddRequest,
  type OnChainEventSource,
  type RegisterRequest,
  type RegisteredFid,
  type TransactionStatus,
  eventsQuery,
} from "./client.js";
import { ChainError } from "./errors.js";
import * as store from "./store.js";
import type { ChainTables, TransactionKind } from "./tables.js";

export interface ChainServiceOptions {
  logger: Logger;
  /** 0 mines every transaction at once, in a block of its own. */
  blockTimeSeconds: number;
  /** Unix ms. */
  now: () => number;
}

export interface EventsPage {
  events: OnChainEvent[];
  /** Where the next page starts. */
  nextFromBlock: number;
  /** True when the page was cut short by the limit. */
  hasMore: boolean;
}

export interface BlockInfo {
  number: number;
  hash: Hex;
  /** Unix seconds. */
  timestamp: number;
}

export interface MinedTransaction {
  transactionHash: Hex;
  blockNumber: number;
  events: OnChainEvent[];
}

/** The KeyRegistry's key type 1 (Ed25519) with validator type 1 (signed key request) is the only pair deployed. */
export const MAX_UNITS_PER_RENT = 1000;
const ID_AND_KEY_REGISTRY_VERSION = 2;
const STORAGE_REGISTRY_VERSION = 0;
const RENT_PERIOD_SECONDS = 365 * 24 * 60 * 60;
const BLOCK_POLL_MS = 500;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

/** Lower-case form of a 0x address; mixed case must be a valid EIP-55 checksum. */
export function normaliseAddress(value: string, field: string): string {
  if (!ADDRESS.test(value) || !isAddress(value, { strict: true })) {
    throw new ChainError(
      "invalid_address",
      `${field} must be a 0x-prefixed 20-byte address (mixed case only with a valid checksum)`,
    );
  }
  return value.toLowerCase();
}

function isFid(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1;
}

function parseKey(value: string): Uint8Array {
  if (!HEX_BYTES.test(value) || value.length !== 66) {
    throw new ChainError("invalid_key", "key must be a 32-byte Ed25519 public key as 0x hex (64 hex digits)");
  }
  return hexToBytes(value as Hex);
}

function parseMetadata(value: string): Uint8Array {
  if (!HEX_BYTES.test(value)) throw new ChainError("bad_request", "metadata must be 0x hex bytes");
  return hexToBytes(value as Hex);
}

function unknownFid(fid: number): ChainError {
  return new ChainError("unknown_fid", `fid ${fid} is not registered`);
}

function transactionHash(genesis: Uint8Array, seq: number): Uint8Array {
  return keccak256(encodePacked(["bytes32", "uint64"], [toHex(genesis), BigInt(seq)]), "bytes");
}

function blockHash(number: number, parentHash: Uint8Array, timestamp: number): Uint8Array {
  return keccak256(
    encodePacked(
      ["uint32", "uint64", "bytes32", "uint64"],
      [OP_MAINNET_CHAIN_ID, BigInt(number), toHex(parentHash), BigInt(timestamp)],
    ),
    "bytes",
  );
}

function decodeEvents(rows: store.EventRow[]): OnChainEvent[] {
  return rows.map((row) => OnChainEvent.decode(row.event));
}

export class ChainService implements ChainClient, OnChainEventSource, ChainWriter {
  private genesis: Uint8Array | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerMining: Promise<void> | undefined;
  private closing = false;
  private readonly watcher: BlockWatcher;

  constructor(
    private readonly database: Database<ChainTables>,
    private readonly options: ChainServiceOptions,
  ) {
    this.watcher = new BlockWatcher(() => this.latestBlockNumber(), BLOCK_POLL_MS);
  }

  /** Creates the genesis block of a fresh chain and starts the block timer. */
  async start(): Promise<void> {
    this.genesis = await serializedTransaction(this.database, "chain", async (trx) => {
      const existing = await store.genesisHash(trx);
      if (existing) return existing;
      // A random genesis hash makes every hash of a fresh devchain differ from those of any other.
      const hash = keccak256(randomBytes(32), "bytes");
      await store.insertBlock(trx, {
        number: 0,
        hash,
        parentHash: new Uint8Array(32),
        timestamp: this.nowSeconds(),
      });
      return hash;
    });
    if (this.options.blockTimeSeconds > 0) {
      this.timer = setInterval(() => this.mineOnTimer(), this.options.blockTimeSeconds * 1000);
    }
  }

  /** Stops the timer and mines what is pending; later submissions are mined at once. */
  async stopMining(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.timerMining;
    await this.mine();
  }

  close(): void {
    this.watcher.close();
  }

  // Reads (mined state only).

  async getAccount(fid: number): Promise<Account | undefined> {
    if (!isFid(fid)) return undefined;
    const db = this.database.db;
    const row = await store.fidRow(db, fid);
    if (!row?.mined) return undefined;
    const [signers, storageUnits] = await Promise.all([
      store.activeSigners(db, fid),
      store.activeStorageUnits(db, fid, this.nowSeconds()),
    ]);
    return {
      fid,
      custody: getAddress(row.custody),
      recovery: getAddress(row.recovery),
      signers: signers.map((s) => ({
        key: toHex(s.key),
        keyType: s.keyType,
        metadataType: s.metadataType,
        metadata: toHex(s.metadata),
      })),
      storageUnits,
    };
  }

  async custodyOf(fid: number): Promise<Hex | undefined> {
    if (!isFid(fid)) return undefined;
    const row = await store.fidRow(this.database.db, fid);
    return row?.mined ? getAddress(row.custody) : undefined;
  }

  async fidOf(custody: Hex): Promise<number | undefined> {
    if (typeof custody !== "string" || !ADDRESS.test(custody)) return undefined;
    const row = await store.fidRowByCustody(this.database.db, custody.toLowerCase());
    return row?.mined ? row.fid : undefined;
  }

  async getTransaction(hash: Hex): Promise<TransactionStatus | undefined> {
    if (typeof hash !== "string" || !HEX_BYTES.test(hash) || hash.length !== 66) return undefined;
    const tx = await store.transactionByHash(this.database.db, hexToBytes(hash));
    if (!tx) return undefined;
    return tx.blockNumber === null
      ? { transactionHash: toHex(tx.hash), status: "pending" }
      : { transactionHash: toHex(tx.hash), status: "mined", blockNumber: tx.blockNumber };
  }

  async latestBlock(): Promise<BlockInfo> {
    const block = await store.latestBlock(this.database.db);
    if (!block) throw new Error("the devchain has no genesis block; start() was not called");
    return { number: block.number, hash: toHex(block.hash), timestamp: block.timestamp };
  }

  async latestBlockNumber(): Promise<number> {
    return (await this.latestBlock()).number;
  }

  onBlock(listener: (blockNumber: number) => void): () => void {
    return this.watcher.onBlock(listener);
  }

  async eventsFromBlock(fromBlock: number, limit: number): Promise<OnChainEvent[]> {
    return (await this.eventsPage(fromBlock, limit)).events;
  }

  /** Whole blocks of events from `fromBlock`, at most `limit` events unless one block alone has more. */
  async eventsPage(fromBlock: number, limit: number): Promise<EventsPage> {
    const db = this.database.db;
    const { fromBlock: from, limit: size } = eventsQuery(fromBlock, limit);
    // Blocks are committed with their events, so every block up to `latest` is complete.
    const latest = await this.latestBlockNumber();
    const rows = await store.eventsFrom(db, from, latest, size + 1);
    if (rows.length <= size) {
      return { events: decodeEvents(rows), nextFromBlock: Math.max(from, latest + 1), hasMore: false };
    }
    const cut = rows[size]!.blockNumber;
    let page = rows.slice(0, size).filter((row) => row.blockNumber < cut);
    if (page.length === 0) page = await store.eventsOfBlock(db, cut);
    return {
      events: decodeEvents(page),
      nextFromBlock: page[page.length - 1]!.blockNumber + 1,
      hasMore: true,
    };
  }

  // Writes: submitted now, effective when mined.

  async submitRegister(request: RegisterRequest): Promise<TransactionStatus & { fid: number }> {
    const custody = normaliseAddress(request.custody, "custody");
    const recovery = normaliseAddress(request.recovery ?? zeroAddress, "recovery");
    if (custody === zeroAddress)
      throw new ChainError("invalid_address", "custody must not be the zero address");
    let fid = 0;
    const status = await this.submit("register", async (trx, seq) => {
      const owner = await store.fidRowByCustody(trx, custody);
      if (owner)
        throw new ChainError("custody_taken", `${getAddress(custody)} already owns fid ${owner.fid}`);
      fid = await store.nextFid(trx);
      await store.insertFid(trx, { fid, custody, recovery, txSeq: seq });
      return fid;
    });
    return { ...status, fid };
  }

  async submitKeyAdd(request: KeyAddRequest): Promise<TransactionStatus> {
    const { fid } = request;
    const keyType = request.keyType ?? KEY_TYPE_ED25519;
    const metadataType = request.metadataType ?? METADATA_TYPE_SIGNED_KEY_REQUEST;
    if (keyType !== KEY_TYPE_ED25519 || metadataType !== METADATA_TYPE_SIGNED_KEY_REQUEST) {
      throw new ChainError(
        "unsupported_key_type",
        `only keyType ${KEY_TYPE_ED25519} with metadataType ${METADATA_TYPE_SIGNED_KEY_REQUEST} has a validator on this chain`,
      );
    }
    const key = parseKey(request.key);
    const metadata = parseMetadata(request.metadata ?? "0x");
    return this.submit("signer_add", async (trx, seq) => {
      await this.requireFid(trx, fid);
      const existing = await store.signerRow(trx, fid, key);
      if (existing?.removeSubmitted) {
        throw new ChainError(
          "key_removed",
          `key ${toHex(key)} was removed from fid ${fid} and cannot be added again`,
        );
      }
      if (existing) throw new ChainError("key_exists", `key ${toHex(key)} is already added to fid ${fid}`);
      await store.insertSigner(trx, { fid, key, keyType, metadataType, metadata, txSeq: seq });
      return fid;
    });
  }

  async submitKeyRemove(fid: number, keyHex: Hex): Promise<TransactionStatus> {
    const key = parseKey(keyHex);
    return this.submit("signer_remove", async (trx, seq) => {
      await this.requireFid(trx, fid);
      const existing = await store.signerRow(trx, fid, key);
      if (!existing || existing.removeSubmitted) {
        throw new ChainError("key_not_active", `key ${toHex(key)} is not an active key of fid ${fid}`);
      }
      await store.submitSignerRemove(trx, fid, key, seq);
      return fid;
    });
  }

  async submitStorageRent(fid: number, units: number): Promise<TransactionStatus> {
    if (!Number.isSafeInteger(units) || units < 1 || units > MAX_UNITS_PER_RENT) {
      throw new ChainError("invalid_units", `units must be an integer from 1 to ${MAX_UNITS_PER_RENT}`);
    }
    return this.submit("storage_rent", async (trx, seq) => {
      const owner = await this.requireFid(trx, fid);
      await store.insertStorageRent(trx, { txSeq: seq, fid, units, payer: owner.custody });
      return fid;
    });
  }

  /** Resolves once the transaction is mined (at most one block time), with its events. */
  async waitForTransaction(hash: Hex): Promise<MinedTransaction> {
    const bytes = hexToBytes(hash);
    for (;;) {
      const next = this.watcher.nextBlock();
      const tx = await store.transactionByHash(this.database.db, bytes);
      if (!tx) {
        next.cancel();
        throw new ChainError("unknown_transaction", `transaction ${hash} is not known`);
      }
      if (tx.blockNumber !== null) {
        next.cancel();
        const events = decodeEvents(await store.eventsOfTransaction(this.database.db, tx.seq));
        return { transactionHash: hash, blockNumber: tx.blockNumber, events };
      }
      await next.promise;
    }
  }

  async register(request: RegisterRequest): Promise<RegisteredFid> {
    const submitted = await this.submitRegister(request);
    const body = (await this.minedEvent(submitted)).idRegisterEventBody!;
    return {
      fid: submitted.fid,
      custody: getAddress(toHex(body.to)),
      recovery: getAddress(toHex(body.recoveryAddress)),
    };
  }

  async addKey(request: KeyAddRequest): Promise<OnChainEvent> {
    return this.minedEvent(await this.submitKeyAdd(request));
  }

  async removeKey(fid: number, key: Hex): Promise<OnChainEvent> {
    return this.minedEvent(await this.submitKeyRemove(fid, key));
  }

  async rentStorage(fid: number, units: number): Promise<OnChainEvent> {
    return this.minedEvent(await this.submitStorageRent(fid, units));
  }

  /** Mines the pending transactions into one block; returns its number, or undefined when none were pending. */
  async mine(): Promise<number | undefined> {
    const mined = await serializedTransaction(this.database, "chain", (trx) => this.mineIn(trx));
    if (mined !== undefined) this.watcher.notify(mined);
    return mined;
  }

  private async minedEvent(status: TransactionStatus): Promise<OnChainEvent> {
    return (await this.waitForTransaction(status.transactionHash)).events[0]!;
  }

  private async requireFid(trx: store.ChainDb, fid: number): Promise<store.FidRow> {
    if (!isFid(fid)) throw new ChainError("bad_request", "fid must be a positive integer");
    const row = await store.fidRow(trx, fid);
    if (!row) throw unknownFid(fid);
    return row;
  }

  private mineOnTimer(): void {
    this.timerMining ??= this.mine()
      .then(() => undefined)
      .catch((error: unknown) => this.options.logger.error({ err: error }, "devchain: mining a block failed"))
      .finally(() => {
        this.timerMining = undefined;
      });
  }

  /**
   * Records a transaction whose rule checks and state rows `apply` makes (throwing ChainError rolls
   * everything back); with no block time, or while closing, it is mined in the same database transaction.
   */
  private async submit(
    kind: TransactionKind,
    apply: (trx: store.ChainDb, seq: number) => Promise<number>,
  ): Promise<TransactionStatus> {
    const genesis = this.genesis;
    if (!genesis) throw new Error("the devchain is not started");
    const result = await serializedTransaction(this.database, "chain", async (trx) => {
      const seq = await store.nextTransactionSeq(trx);
      const hash = transactionHash(genesis, seq);
      const fid = await apply(trx, seq);
      await store.insertTransaction(trx, { seq, hash, kind, fid });
      const blockNumber =
        this.options.blockTimeSeconds === 0 || this.closing ? await this.mineIn(trx) : undefined;
      return { hash, blockNumber };
    });
    if (result.blockNumber === undefined) return { transactionHash: toHex(result.hash), status: "pending" };
    this.watcher.notify(result.blockNumber);
    return { transactionHash: toHex(result.hash), status: "mined", blockNumber: result.blockNumber };
  }

  private async mineIn(trx: store.ChainDb): Promise<number | undefined> {
    const pending = await store.pendingTransactions(trx);
    if (pending.length === 0) return undefined;
    const parent = await store.latestBlock(trx);
    if (!parent) throw new Error("the devchain has no genesis block");
    const number = parent.number + 1;
    const timestamp = Math.max(parent.timestamp, this.nowSeconds());
    const hash = blockHash(number, parent.hash, timestamp);
    await store.insertBlock(trx, { number, hash, parentHash: parent.hash, timestamp });
    const block = { number, hash, timestamp };
    for (const [txIndex, tx] of pending.entries()) {
      await store.markTransactionMined(trx, tx.seq, number, txIndex);
      // Each transaction here emits exactly one log, so its log index equals its transaction index.
      const event = await this.eventOf(trx, tx, block, txIndex);
      await store.insertEvent(trx, {
        blockNumber: number,
        logIndex: txIndex,
        txSeq: tx.seq,
        event: OnChainEvent.encode(event).finish(),
      });
    }
    return number;
  }

  private async eventOf(
    trx: store.ChainDb,
    tx: store.TransactionRow,
    block: { number: number; hash: Uint8Array; timestamp: number },
    txIndex: number,
  ): Promise<OnChainEvent> {
    const base = {
      chainId: OP_MAINNET_CHAIN_ID,
      blockNumber: block.number,
      blockHash: block.hash,
      blockTimestamp: block.timestamp,
      transactionHash: tx.hash,
      logIndex: txIndex,
      fid: tx.fid,
      txIndex,
    };
    switch (tx.kind) {
      case "register": {
        const row = await store.mineFid(trx, tx.seq, block.number);
        return {
          ...base,
          type: OnChainEventType.EVENT_TYPE_ID_REGISTER,
          version: ID_AND_KEY_REGISTRY_VERSION,
          idRegisterEventBody: {
            to: hexToBytes(row.custody as Hex),
            eventType: IdRegisterEventType.REGISTER,
            from: new Uint8Array(0),
            recoveryAddress: hexToBytes(row.recovery as Hex),
          },
        };
      }
      case "signer_add": {
        const row = await store.mineSignerAdd(trx, tx.seq, block.number);
        return {
          ...base,
          type: OnChainEventType.EVENT_TYPE_SIGNER,
          version: ID_AND_KEY_REGISTRY_VERSION,
          signerEventBody: {
            key: row.key,
            keyType: row.keyType,
            eventType: SignerEventType.ADD,
            metadata: row.metadata,
            metadataType: row.metadataType,
          },
        };
      }
      case "signer_remove": {
        const row = await store.mineSignerRemove(trx, tx.seq, block.number);
        return {
          ...base,
          type: OnChainEventType.EVENT_TYPE_SIGNER,
          version: ID_AND_KEY_REGISTRY_VERSION,
          signerEventBody: {
            key: row.key,
            keyType: 0,
            eventType: SignerEventType.REMOVE,
            metadata: new Uint8Array(0),
            metadataType: 0,
          },
        };
      }
      case "storage_rent": {
        const row = await store.mineStorageRent(
          trx,
          tx.seq,
          block.number,
          block.timestamp + RENT_PERIOD_SECONDS,
        );
        return {
          ...base,
          type: OnChainEventType.EVENT_TYPE_STORAGE_RENT,
          version: STORAGE_REGISTRY_VERSION,
          storageRentEventBody: {
            payer: hexToBytes(row.payer as Hex),
            units: row.units,
            // The reference hub writes this expiry in protocol-epoch seconds
            // (docs/reference/protocol-wire.md §4).
            expiry: toProtocolTime(block.timestamp * 1000) + RENT_PERIOD_SECONDS,
          },
        };
      }
    }
  }

  private nowSeconds(): number {
    return Math.floor(this.options.now() / 1000);
  }
}
