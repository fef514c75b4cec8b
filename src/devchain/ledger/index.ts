/**
 * The ledger: the chain as Ethereum clients see it (blocks, transactions and receipts, logs, and the
 * registries' state at every block), written in one serialised database transaction per block.
 * The devchain's REST routes and its JSON-RPC both go through it: one chain, two doors.
 */
import { type Address, getAddress, type Hex, keccak256, toHex as bytesToHex } from "viem";
import { BlockWatcher } from "../../interfaces/blockWatcher.js";
import { type Database, serializedTransaction } from "../../storage/index.js";
import { isContractAddress } from "../contracts/call.js";
import { type ChainPrices, Revert, StateOverlay, type StateReader, stateKey } from "../contracts/state.js";
import { DEVCHAIN_TABLE_PREFIX, type DevchainDb, type DevchainTables } from "../tables.js";
import {
  blockByHash,
  blockByNumber,
  ensureGenesis,
  latestBlockNumber,
  latestStoredBlock,
  type StoredBlock,
} from "./blockStore.js";
import { type CallRequest, executeTransaction, runCall } from "./execute.js";
import { runOperatorAction } from "./operatorActions.js";
import { gasUsed } from "./fees.js";
import {
  type LogFilter,
  logJsonMatching,
  logJsonOfTransaction,
  logsMatching,
  logsOfTransaction,
  type MinedLog,
  type StoredLog,
} from "./logStore.js";
import { type ChainEnv, mineBlock } from "./mine.js";
import { stateAt } from "./stateStore.js";
import { nextNonce, submitRawTransaction } from "./submit.js";
import {
  countPendingTransactions,
  insertTransaction,
  nextSeq,
  pendingTransactions,
  type OperatorAction,
  type StoredTransaction,
  transactionByHash,
  transactionsOfBlock,
} from "./txStore.js";

export interface LedgerOptions {
  chainId: number;
  baseFee: bigint;
  prices: ChainPrices;
  /** Mine each transaction at once, in a block of its own (block time 0). */
  mineAtOnce: boolean;
  /** Unix ms. */
  now: () => number;
}

/**
 * What an operator write's caller adds to its dry run, both on the pending state: a check before it
 * (a precondition of the REST route's own), and the error a revert becomes.
 */
export interface OperatorRules {
  check?: (pending: StateReader) => Promise<void>;
  refusal?: (revert: Revert, pending: StateReader) => Promise<Error>;
}

/** Who signs the REST routes' operator writes: an address no key controls. */
const OPERATOR_ADDRESS: Address = getAddress("0x00000000000000000000000000000000ca57ae70");

const BLOCK_POLL_MS = 500;

/**
 * The pending state kept between operator writes, so that a write runs on it instead of running
 * every pending transaction again (a pool filled by REST writes cost O(n²) executions). It is the
 * state as the block `latest` left it, then the pool's first `applied` transactions; a write finding
 * another block or another pool size builds it again.
 */
interface PendingState {
  state: StateOverlay;
  env: ChainEnv & { number: bigint; timestamp: bigint };
  latest: StoredBlock;
  base: StateAtBlock;
  applied: number;
}

/** The state as of one block, read through the connection the current write holds. */
class StateAtBlock implements StateReader {
  constructor(
    public db: DevchainDb,
    readonly number: number,
  ) {}

  get(key: string): Promise<string | undefined> {
    return stateAt(this.db, this.number).get(key);
  }
}

export class Ledger {
  readonly watcher: BlockWatcher;
  readonly #env: ChainEnv;
  /**
   * The latest block as last decoded: "latest" is the first read of most calls, and a block never
   * changes once mined, so a call reads only the latest number (another process sharing the
   * database may have mined since) and decodes a block only when that number is new.
   */
  #latest: StoredBlock | undefined;
  #pendingState: PendingState | undefined;

  constructor(
    private readonly database: Database<DevchainTables>,
    private readonly options: LedgerOptions,
  ) {
    this.#env = { chainId: options.chainId, prices: options.prices, baseFee: options.baseFee };
    this.watcher = new BlockWatcher(async () => (await this.latestBlock()).number, BLOCK_POLL_MS);
  }

  get db(): DevchainDb {
    return this.database.db;
  }

  get chainId(): number {
    return this.options.chainId;
  }

  async start(): Promise<void> {
    await serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, (trx) =>
      ensureGenesis(trx, this.#nowSeconds(), this.options.baseFee),
    );
  }

  async latestBlock(): Promise<StoredBlock> {
    const number = await latestBlockNumber(this.database);
    if (this.#latest?.number === number) return this.#latest;
    const block = await blockByNumber(this.database, number);
    // Blocks are only ever added; only a database emptied under the running part loses one.
    if (!block) return latestStoredBlock(this.db);
    if (block.number > (this.#latest?.number ?? -1)) this.#latest = block;
    return block;
  }

  blockByNumber(number: number): Promise<StoredBlock | undefined> {
    return blockByNumber(this.database, number);
  }

  blockByHash(hash: Hex): Promise<StoredBlock | undefined> {
    return blockByHash(this.db, hash);
  }

  transactionsOfBlock(number: number): Promise<StoredTransaction[]> {
    return transactionsOfBlock(this.db, number);
  }

  transaction(hash: Hex): Promise<StoredTransaction | undefined> {
    return transactionByHash(this.db, hash);
  }

  logsOfTransaction(seq: number): Promise<StoredLog[]> {
    return logsOfTransaction(this.db, seq);
  }

  logs(filter: LogFilter, limit: number): Promise<MinedLog[]> {
    return logsMatching(this.db, filter, limit);
  }

  /** How many logs match `filter` (counting at most `limit`), and their JSON as one array (logJson.ts). */
  logJson(filter: LogFilter, limit: number): Promise<{ count: number; json: string }> {
    return logJsonMatching(this.database, filter, limit);
  }

  /** The JSON of a mined transaction's logs, in log order. */
  logJsonOfTransaction(seq: number): Promise<string[]> {
    return logJsonOfTransaction(this.db, seq);
  }

  stateAt(blockNumber: number): StateReader {
    return stateAt(this.database, blockNumber);
  }

  nonceOf(address: Address, includePending: boolean): Promise<bigint> {
    return nextNonce(this.db, address, includePending);
  }

  pendingCount(): Promise<number> {
    return countPendingTransactions(this.db);
  }

  /** A signed transaction into the pool; returns its hash. */
  async submitRaw(raw: Hex): Promise<Hex> {
    const hash = await serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, (trx) =>
      submitRawTransaction(trx, raw, this.options.chainId),
    );
    if (this.options.mineAtOnce) await this.mine(false);
    return hash;
  }

  /**
   * An operator write of the REST routes into the pool, run first on the pending state (the latest
   * block's, then every pending transaction's) so that a write that would revert is refused at once
   * (a Revert is thrown) and a submitted one is never reverted at mining. Returns its hash and the
   * state after it, for what the caller reads back (the fid a registration gets).
   */
  async submitOperator(
    action: OperatorAction,
    rules: OperatorRules = {},
  ): Promise<{ hash: Hex; after: StateReader }> {
    let keptChanged = false;
    const write = serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, async (trx) => {
      const pending = await this.#pending(trx);
      const { state, env, latest } = pending;
      await rules.check?.(state);
      const after = state.child();
      try {
        await runOperatorAction(
          {
            state: after,
            origin: OPERATOR_ADDRESS,
            sender: OPERATOR_ADDRESS,
            value: 0n,
            block: env,
            chainId: env.chainId,
            logs: [],
            prices: env.prices,
          },
          action,
        );
      } catch (error) {
        if (error instanceof Revert && rules.refusal) throw await rules.refusal(error, state);
        throw error;
      }
      // Operator writes have no signature: their hash is the chain's latest block, their place and the action.
      const seq = await nextSeq(trx);
      const hash = keccak256(bytesToHex(`${latest.hash}|${seq}|${JSON.stringify(action)}`));
      await insertTransaction(trx, seq, {
        hash,
        sender: OPERATOR_ADDRESS,
        recipient: null,
        nonce: 0,
        value: 0n,
        input: "0x",
        type: 0,
        gas: 0n,
        gasPrice: 0n,
        maxFeePerGas: null,
        maxPriorityFeePerGas: null,
        raw: null,
        operator: action,
      });
      // The last step before the commit: the pool now holds this write too. A commit that fails
      // after it drops the kept state below.
      keptChanged = true;
      state.commit(after);
      pending.applied += 1;
      return { hash, after };
    });
    let submitted: Awaited<typeof write>;
    try {
      submitted = await write;
    } catch (error) {
      if (keptChanged) this.#pendingState = undefined;
      throw error;
    }
    if (this.options.mineAtOnce) await this.mine(false);
    return submitted;
  }

  /** The pending state, kept from the last write when the chain and the pool are as it left them. */
  async #pending(trx: DevchainDb): Promise<PendingState> {
    // Read in the write's own transaction: the kept latest block may trail a block just committed.
    const latest = await latestStoredBlock(trx);
    const kept = this.#pendingState;
    if (
      kept &&
      kept.latest.number === latest.number &&
      kept.applied === (await countPendingTransactions(trx))
    ) {
      kept.base.db = trx;
      return kept;
    }
    const base = new StateAtBlock(trx, latest.number);
    const state = new StateOverlay(base);
    const env = {
      ...this.#env,
      number: BigInt(latest.number + 1),
      timestamp: BigInt(Math.max(latest.timestamp, this.#nowSeconds())),
    };
    const transactions = await pendingTransactions(trx);
    for (const tx of transactions) await executeTransaction(state, tx, env);
    return (this.#pendingState = { state, env, latest, base, applied: transactions.length });
  }

  /** Mines a block (an empty one only when `empty`); returns it, or undefined when none was mined. */
  async mine(empty: boolean): Promise<StoredBlock | undefined> {
    const block = await serializedTransaction(this.database, DEVCHAIN_TABLE_PREFIX, (trx) =>
      mineBlock(trx, this.#env, this.#nowSeconds(), empty),
    );
    if (block) this.watcher.notify(block.number);
    return block;
  }

  /** eth_call: `request` on the state as of `block`, nothing kept. */
  async call(request: CallRequest, block: StoredBlock): Promise<{ status: 0 | 1; output: Hex }> {
    const state = new StateOverlay(this.stateAt(block.number));
    return runCall(state, request, {
      ...this.#env,
      number: BigInt(block.number + 1),
      timestamp: BigInt(Math.max(block.timestamp, this.#nowSeconds())),
    });
  }

  /** The gas `request` would use (the same figure whatever the state: docs in fees.ts). */
  gasOf(request: CallRequest): bigint {
    return gasUsed(request.input, isContractAddress(request.to));
  }

  /** Sets an address's balance (the operator method castnet_setBalance, and funded accounts). */
  async setBalance(address: Address, balance: bigint): Promise<Hex> {
    return (await this.submitOperator({ action: "setBalance", address, balance: balance.toString() })).hash;
  }

  /** The balance of `address` as of `blockNumber`. */
  async balanceOf(address: Address, blockNumber: number): Promise<bigint> {
    return BigInt((await this.stateAt(blockNumber).get(stateKey.balance(address))) ?? "0");
  }

  close(): void {
    this.watcher.close();
  }

  #nowSeconds(): number {
    return Math.floor(this.options.now() / 1000);
  }
}

export type { StoredBlock } from "./blockStore.js";
export type { MinedLog, StoredLog, LogFilter } from "./logStore.js";
export type { StoredTransaction, OperatorAction } from "./txStore.js";
export type { CallRequest } from "./execute.js";
