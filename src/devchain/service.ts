/**
 * The devchain's running chain: writes to the registries as transactions that wait for the next
 * block, a block timer that mines them, and the reads and block notices the other parts use. The
 * rules of each registry are in its own module.
 */
import { getAddress, hexToBytes } from "viem";
import type { OnChainEvent } from "../protocol/generated/onchain_event.js";
import { toHex } from "../protocol/hex.js";
import { type Database, serializedTransaction } from "../storage/index.js";
import { account } from "./accounts.js";
import { BlockWatcher } from "../interfaces/blockWatcher.js";
import { type BlockInfo, genesis, latestBlock, mineBlock } from "./blocks.js";
import type {
  Account,
  ChainClient,
  ChainWriter,
  Hex,
  KeyAddRequest,
  OnChainEventSource,
  RegisterRequest,
  RegisteredFid,
  TransactionStatus,
} from "../interfaces/chain.js";
import { DevchainError } from "../interfaces/chainErrors.js";
import { type EventsPage, eventsOfTransaction, eventsPage } from "./events.js";
import { custodyOf, fidOf, parseRegister, recordRegister } from "./idRegistry.js";
import { parseKey, parseKeyAdd, recordKeyAdd, recordKeyRemove } from "./keyRegistry.js";
import { checkUnits, recordRent } from "./storageRegistry.js";
import {
  type DevchainDb,
  DEVCHAIN_TABLE_PREFIX,
  type DevchainTables,
  type TransactionKind,
} from "./tables.js";
import {
  countPendingTransactions,
  recordTransaction,
  transactionByHash,
  transactionStatus,
} from "./transactions.js";

export interface DevchainServiceOptions {
  /** 0 mines every transaction at once, in a block of its own. */
  blockTimeSeconds: number;
  /** Unix ms. */
  now: () => number;
}

export interface MinedTransaction {
  transactionHash: Hex;
  blockNumber: number;
  events: OnChainEvent[];
}

const BLOCK_POLL_MS = 500;

export class DevchainService implements ChainClient, OnChainEventSource, ChainWriter {
  private genesis: Uint8Array | undefined;
  private closing = false;
  private readonly watcher: BlockWatcher;

  constructor(
    private readonly database: Database<DevchainTables>,
    private readonly options: DevchainServiceOptions,
  ) {
    this.watcher = new BlockWatcher(() => this.latestBlockNumber(), BLOCK_POLL_MS);
  }

  /** Creates the genesis block of a fresh chain. */
  async start(): Promise<void> {
    this.genesis = await serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, (trx) =>
      genesis(trx, this.nowSeconds()),
    );
  }

  /** Mines what is pending (the block timer has stopped); a later submission is mined at once. */
  async close(): Promise<void> {
    this.closing = true;
    await this.mine();
    this.watcher.close();
  }

  // Reads (mined state only).

  async getAccount(fid: number): Promise<Account | undefined> {
    return account(this.database.db, fid, this.nowSeconds());
  }

  async custodyOf(fid: number): Promise<Hex | undefined> {
    return custodyOf(this.database.db, fid);
  }

  async fidOf(custody: Hex): Promise<number | undefined> {
    return fidOf(this.database.db, custody);
  }

  async getTransaction(hash: Hex): Promise<TransactionStatus | undefined> {
    return transactionStatus(this.database.db, hash);
  }

  async latestBlock(): Promise<BlockInfo> {
    return latestBlock(this.database.db);
  }

  async latestBlockNumber(): Promise<number> {
    return (await this.latestBlock()).number;
  }

  /** Transactions submitted and not yet mined (with a block time above 0). */
  pendingTransactionCount(): Promise<number> {
    return countPendingTransactions(this.database.db);
  }

  onBlock(listener: (blockNumber: number) => void): () => void {
    return this.watcher.onBlock(listener);
  }

  async eventsFromBlock(fromBlock: number, limit: number): Promise<OnChainEvent[]> {
    return (await this.eventsPage(fromBlock, limit)).events;
  }

  /** Whole blocks of events from `fromBlock`, at most `limit` events unless one block alone has more. */
  async eventsPage(fromBlock: number, limit: number): Promise<EventsPage> {
    return eventsPage(this.database.db, fromBlock, limit, await this.latestBlockNumber());
  }

  // Writes: submitted now, effective when mined.

  async submitRegister(request: RegisterRequest): Promise<TransactionStatus & { fid: number }> {
    const addresses = parseRegister(request);
    let fid = 0;
    const status = await this.submit("register", async (trx, seq) => {
      fid = await recordRegister(trx, seq, addresses);
      return fid;
    });
    return { ...status, fid };
  }

  async submitKeyAdd(request: KeyAddRequest): Promise<TransactionStatus> {
    const signer = parseKeyAdd(request);
    return this.submit("signer_add", (trx, seq) => recordKeyAdd(trx, seq, signer));
  }

  async submitKeyRemove(fid: number, keyHex: Hex): Promise<TransactionStatus> {
    const key = parseKey(keyHex);
    return this.submit("signer_remove", (trx, seq) => recordKeyRemove(trx, seq, fid, key));
  }

  async submitStorageRent(fid: number, units: number): Promise<TransactionStatus> {
    checkUnits(units);
    return this.submit("storage_rent", (trx, seq) => recordRent(trx, seq, fid, units));
  }

  /** Resolves once the transaction is mined (at most one block time), with its events. */
  async waitForTransaction(hash: Hex): Promise<MinedTransaction> {
    const bytes = hexToBytes(hash);
    for (;;) {
      const next = this.watcher.nextBlock();
      const tx = await transactionByHash(this.database.db, bytes);
      if (!tx) {
        next.cancel();
        throw new DevchainError("unknown_transaction", `transaction ${hash} is not known`);
      }
      if (tx.blockNumber !== null) {
        next.cancel();
        const events = await eventsOfTransaction(this.database.db, tx.seq);
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
    const mined = await serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, (trx) =>
      mineBlock(trx, this.nowSeconds()),
    );
    if (mined !== undefined) this.watcher.notify(mined);
    return mined;
  }

  private async minedEvent(status: TransactionStatus): Promise<OnChainEvent> {
    return (await this.waitForTransaction(status.transactionHash)).events[0]!;
  }

  /**
   * Records a transaction whose rule checks and state rows `apply` makes (throwing DevchainError rolls
   * everything back); with no block time, or while closing, it is mined in the same database transaction.
   */
  private async submit(
    kind: TransactionKind,
    apply: (trx: DevchainDb, seq: number) => Promise<number>,
  ): Promise<TransactionStatus> {
    const genesisHash = this.genesis;
    if (!genesisHash) throw new Error("the devchain is not started");
    const result = await serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, async (trx) => {
      const hash = await recordTransaction(trx, genesisHash, kind, apply);
      const blockNumber =
        this.options.blockTimeSeconds === 0 || this.closing
          ? await mineBlock(trx, this.nowSeconds())
          : undefined;
      return { hash, blockNumber };
    });
    if (result.blockNumber === undefined) return { transactionHash: toHex(result.hash), status: "pending" };
    this.watcher.notify(result.blockNumber);
    return { transactionHash: toHex(result.hash), status: "mined", blockNumber: result.blockNumber };
  }

  private nowSeconds(): number {
    return Math.floor(this.options.now() / 1000);
  }
}
