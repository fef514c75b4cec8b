/**
 * The devchain as the other parts and the REST routes use it: the reads and operator writes of
 * `ChainClient`, `ChainWriter` and `OnChainEventSource`, over the ledger (src/devchain/ledger/),
 * so that every write is a transaction of the one chain JSON-RPC serves.
 */
import { getAddress, type Address } from "viem";
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
import type { OnChainEvent } from "../protocol/generated/onchain_event.js";
import { fidOfAddress, idCounter, keyDataOf, KeyState, readFid } from "./contracts/reads.js";
import type { Revert, StateReader } from "./contracts/state.js";
import { accountOf } from "./ledger/accounts.js";
import { type EventsPage, eventsOfLogs, eventsPage } from "./ledger/events.js";
import type { Ledger, OperatorAction } from "./ledger/index.js";
import {
  checkUnits,
  isFid,
  isTransactionHash,
  parseKey,
  parseKeyAdd,
  parseRegister,
  unknownFid,
} from "./restRequests.js";

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

export class DevchainService implements ChainClient, OnChainEventSource, ChainWriter {
  #closing = false;

  constructor(
    readonly ledger: Ledger,
    private readonly now: () => number,
  ) {}

  /** Mines what is pending; nothing accepted is lost. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.ledger.mine(false);
    this.ledger.close();
  }

  // Reads (mined state only).

  getAccount(fid: number): Promise<Account | undefined> {
    return accountOf(this.ledger, fid, Math.floor(this.now() / 1000));
  }

  async custodyOf(fid: number): Promise<Hex | undefined> {
    if (!isFid(fid)) return undefined;
    return (await readFid(await this.#latestState(), BigInt(fid)))?.custody;
  }

  async fidOf(custody: Hex): Promise<number | undefined> {
    if (typeof custody !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(custody)) return undefined;
    const fid = await fidOfAddress(await this.#latestState(), custody as Address);
    return fid === undefined ? undefined : Number(fid);
  }

  async latestBlock(): Promise<BlockInfo> {
    const { number, hash, timestamp } = await this.ledger.latestBlock();
    return { number, hash, timestamp };
  }

  async latestBlockNumber(): Promise<number> {
    return (await this.ledger.latestBlock()).number;
  }

  /** Transactions submitted and not yet mined (with a block time above 0). */
  pendingTransactionCount(): Promise<number> {
    return this.ledger.pendingCount();
  }

  onBlock(listener: (blockNumber: number) => void): () => void {
    return this.ledger.watcher.onBlock(listener);
  }

  async eventsFromBlock(fromBlock: number, limit: number): Promise<OnChainEvent[]> {
    return (await this.eventsPage(fromBlock, limit)).events;
  }

  eventsPage(fromBlock: number, limit: number): Promise<EventsPage> {
    return eventsPage(this.ledger, fromBlock, limit);
  }

  async getTransaction(hash: Hex): Promise<TransactionStatus | undefined> {
    if (!isTransactionHash(hash)) return undefined;
    const tx = await this.ledger.transaction(hash.toLowerCase() as Hex);
    if (!tx) return undefined;
    return tx.blockNumber === null
      ? { transactionHash: tx.hash, status: "pending" }
      : { transactionHash: tx.hash, status: "mined", blockNumber: tx.blockNumber };
  }

  // Writes: submitted now, effective when mined.

  async submitRegister(request: RegisterRequest): Promise<TransactionStatus & { fid: number }> {
    const { custody, recovery } = parseRegister(request);
    const { status, after } = await this.#submit(
      { action: "register", to: custody, recovery },
      undefined,
      async (error, pending) =>
        error.errorName === "HasId"
          ? new DevchainError(
              "custody_taken",
              `${custody} already owns fid ${await fidOfAddress(pending, custody)}`,
            )
          : undefined,
    );
    return { ...status, fid: Number(await idCounter(after)) };
  }

  async submitKeyAdd(request: KeyAddRequest): Promise<TransactionStatus> {
    const add = parseKeyAdd(request);
    return (
      await this.#submit({ action: "addKey", ...add }, add.fid, async (error, pending) => {
        if (error.errorName !== "InvalidState") return undefined;
        const data = await keyDataOf(pending, BigInt(add.fid), add.key);
        return data.state === KeyState.removed
          ? new DevchainError(
              "key_removed",
              `key ${add.key} was removed from fid ${add.fid} and cannot be added again`,
            )
          : new DevchainError("key_exists", `key ${add.key} is already added to fid ${add.fid}`);
      })
    ).status;
  }

  async submitKeyRemove(fid: number, keyHex: Hex): Promise<TransactionStatus> {
    const key = parseKey(keyHex);
    return (
      await this.#submit({ action: "removeKey", fid, key }, fid, async (error) =>
        error.errorName === "InvalidState"
          ? new DevchainError("key_not_active", `key ${key} is not an active key of fid ${fid}`)
          : undefined,
      )
    ).status;
  }

  async submitStorageRent(fid: number, units: number): Promise<TransactionStatus> {
    checkUnits(units);
    return (await this.#submit({ action: "rent", fid, units }, fid, async () => undefined)).status;
  }

  /** Resolves once the transaction is mined (at most one block time), with its events. */
  async waitForTransaction(hash: Hex): Promise<MinedTransaction> {
    for (;;) {
      const next = this.ledger.watcher.nextBlock();
      const tx = await this.ledger.transaction(hash);
      if (!tx) {
        next.cancel();
        throw new DevchainError("unknown_transaction", `transaction ${hash} is not known`);
      }
      if (tx.blockNumber !== null) {
        next.cancel();
        const block = (await this.ledger.blockByNumber(tx.blockNumber))!;
        const logs = (await this.ledger.logsOfTransaction(tx.seq)).map((log) => ({
          ...log,
          blockHash: block.hash,
          blockTimestamp: block.timestamp,
          transactionHash: tx.hash,
          transactionIndex: tx.txIndex!,
        }));
        const events = eventsOfLogs(this.ledger, logs);
        return { transactionHash: hash, blockNumber: tx.blockNumber, events };
      }
      await next.promise;
    }
  }

  async register(request: RegisterRequest): Promise<RegisteredFid> {
    const submitted = await this.submitRegister(request);
    const body = (await this.#minedEvent(submitted)).idRegisterEventBody!;
    return {
      fid: submitted.fid,
      custody: getAddress(`0x${Buffer.from(body.to).toString("hex")}`),
      recovery: getAddress(`0x${Buffer.from(body.recoveryAddress).toString("hex")}`),
    };
  }

  async addKey(request: KeyAddRequest): Promise<OnChainEvent> {
    return this.#minedEvent(await this.submitKeyAdd(request));
  }

  async removeKey(fid: number, key: Hex): Promise<OnChainEvent> {
    return this.#minedEvent(await this.submitKeyRemove(fid, key));
  }

  async rentStorage(fid: number, units: number): Promise<OnChainEvent> {
    return this.#minedEvent(await this.submitStorageRent(fid, units));
  }

  /**
   * Raises the balance of each address below `balance` wei to it (the development accounts'
   * ether), each a setBalance operator transaction; returns the addresses funded, once their block
   * is mined.
   */
  async fund(addresses: readonly Address[], balance: bigint): Promise<Address[]> {
    const latest = (await this.ledger.latestBlock()).number;
    const funded: Address[] = [];
    for (const address of new Set(addresses.map((a) => getAddress(a)))) {
      if ((await this.ledger.balanceOf(address, latest)) >= balance) continue;
      await this.ledger.setBalance(address, balance);
      funded.push(address);
    }
    if (funded.length > 0) await this.ledger.mine(false);
    return funded;
  }

  /** Mines the pending transactions into one block; returns its number, or undefined when none were pending. */
  async mine(): Promise<number | undefined> {
    return (await this.ledger.mine(false))?.number;
  }

  async #minedEvent(status: TransactionStatus): Promise<OnChainEvent> {
    return (await this.waitForTransaction(status.transactionHash)).events[0]!;
  }

  async #latestState() {
    return this.ledger.stateAt((await this.ledger.latestBlock()).number);
  }

  /**
   * Submits an operator write, dry-run on the pending state in the same database transaction: a fid
   * it names must be registered there, and a revert is the REST error `refusal` names (or a generic
   * one). While closing, the write is mined at once.
   */
  async #submit(
    action: OperatorAction,
    fid: number | undefined,
    refusal: (error: Revert, pending: StateReader) => Promise<DevchainError | undefined>,
  ) {
    if (fid !== undefined && !isFid(fid))
      throw new DevchainError("bad_request", "fid must be a positive integer");
    const submitted = await this.ledger.submitOperator(action, {
      check: async (pending) => {
        if (fid !== undefined && !(await readFid(pending, BigInt(fid)))) throw unknownFid(fid);
      },
      refusal: async (error, pending) =>
        (await refusal(error, pending)) ??
        new DevchainError("bad_request", `the chain refused the write: ${error.errorName}`),
    });
    if (this.#closing) await this.ledger.mine(false);
    const status = await this.getTransaction(submitted.hash);
    return { status: status!, after: submitted.after };
  }
}

export type { EventsPage } from "./ledger/events.js";
