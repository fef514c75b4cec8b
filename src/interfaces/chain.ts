/**
 * What the other parts may ask of the chain. Two implementations: in-process (the all-in-one
 * `castnet start`, the devchain's service) and over the devchain's HTTP interface (a part started
 * alone with --chain-url, `httpChainClient`).
 */
import type { OnChainEvent } from "../protocol/generated/onchain_event.js";

export type Hex = `0x${string}`;

export interface SignerInfo {
  key: Hex;
  keyType: number;
  metadataType: number;
  metadata: Hex;
}

export interface Account {
  fid: number;
  /** EIP-55 checksummed. */
  custody: Hex;
  recovery: Hex;
  /** Active signers only (added and not removed), in the order they were added. */
  signers: SignerInfo[];
  /** Units whose rent has not expired. */
  storageUnits: number;
}

export interface KeyAddRequest {
  fid: number;
  key: Hex;
  keyType?: number;
  metadataType?: number;
  metadata?: Hex;
}

/**
 * A transaction is pending until the next block is mined (at once with --block-time 0). It never
 * fails once accepted: the devchain checks every rule of the contracts on submission.
 */
export interface TransactionStatus {
  transactionHash: Hex;
  status: "pending" | "mined";
  blockNumber?: number;
}

/** Reads and the one write the registry and client API need. Only mined state is visible. */
export interface ChainClient {
  getAccount(fid: number): Promise<Account | undefined>;
  custodyOf(fid: number): Promise<Hex | undefined>;
  fidOf(custody: Hex): Promise<number | undefined>;
  /** Submits a key add and returns at once; rule violations are thrown as DevchainError. */
  submitKeyAdd(request: KeyAddRequest): Promise<TransactionStatus>;
  getTransaction(hash: Hex): Promise<TransactionStatus | undefined>;
}

/** The most events one `eventsFromBlock` call or GET /v1/events page returns (unless one block has more). */
export const MAX_EVENTS_PAGE = 1000;

/** An `eventsFromBlock` query brought into range: a block number ≥ 0 and a limit of 1 to MAX_EVENTS_PAGE. */
export function eventsQuery(fromBlock: number, limit: number): { fromBlock: number; limit: number } {
  return {
    fromBlock: Number.isSafeInteger(fromBlock) && fromBlock > 0 ? fromBlock : 0,
    limit: Number.isSafeInteger(limit) ? Math.min(Math.max(limit, 1), MAX_EVENTS_PAGE) : MAX_EVENTS_PAGE,
  };
}

/** What the hub follows: the on-chain events of mined blocks. */
export interface OnChainEventSource {
  /**
   * Events of whole blocks from `fromBlock` on, in (block, log index) order: up to `limit` events
   * (at most MAX_EVENTS_PAGE), cut at a block boundary (a single block larger than `limit` comes whole), so that the next call
   * can start at the last event's block + 1.
   */
  eventsFromBlock(fromBlock: number, limit: number): Promise<OnChainEvent[]>;
  latestBlockNumber(): Promise<number>;
  /** Called with the new latest block number after blocks are mined; returns the unsubscribe function. */
  onBlock(listener: (blockNumber: number) => void): () => void;
}

export interface RegisterRequest {
  custody: Hex;
  /** Defaults to the zero address. */
  recovery?: Hex;
}

export interface RegisteredFid {
  fid: number;
  custody: Hex;
  recovery: Hex;
}

/**
 * Operator writes that wait until their transaction is mined (tests, `castnet account create`).
 * Rule violations are thrown as DevchainError.
 */
export interface ChainWriter {
  register(request: RegisterRequest): Promise<RegisteredFid>;
  addKey(request: KeyAddRequest): Promise<OnChainEvent>;
  removeKey(fid: number, key: Hex): Promise<OnChainEvent>;
  rentStorage(fid: number, units: number): Promise<OnChainEvent>;
}
