/**
 * What the modelled contracts read and write: the registries' storage and the accounts' ether, as
 * one key-value space. Keys and values are strings (docs/devchain.md, "State"); a missing key reads
 * as its zero value, as contract storage does. The ledger (src/devchain/ledger/) keeps every value
 * with the block that wrote it, so that a call can read the state as of any block; a call runs on an
 * overlay (`StateOverlay`) whose writes are kept only when the transaction succeeds.
 */
import type { Address, Hex } from "viem";

/** Reads state as of one block (or the pending state on top of the latest block). */
export interface StateReader {
  get(key: string): Promise<string | undefined>;
}

/**
 * The keys of the modelled state, one function each, so that the contracts and the ledger agree on
 * the spelling. Addresses are lower-case hex, keys hex, numbers decimal.
 */
export const stateKey = {
  /** Wei, decimal. */
  balance: (address: Address) => `balance/${address.toLowerCase()}`,
  /** The account's transaction count (its next transaction's nonce), decimal. */
  transactionCount: (address: Address) => `txcount/${address.toLowerCase()}`,
  /** IdRegistry: the last fid issued. */
  idCounter: () => "id/counter",
  idOf: (address: Address) => `id/of/${address.toLowerCase()}`,
  custodyOf: (fid: bigint) => `id/custody/${fid}`,
  recoveryOf: (fid: bigint) => `id/recovery/${fid}`,
  /** Each contract's EIP-712 nonce of an address (`contract` is its address). */
  signatureNonce: (contract: Address, address: Address) =>
    `nonce/${contract.toLowerCase()}/${address.toLowerCase()}`,
  /** KeyRegistry: `<state>,<keyType>` of a fid's key. */
  keyData: (fid: bigint, key: Hex) => `key/${fid}/${key.toLowerCase()}`,
  /** KeyRegistry: how many keys a fid has in a state (1 added, 2 removed). */
  keyCount: (fid: bigint, state: number) => `keys/${fid}/${state}/count`,
  /** KeyRegistry: the key at a place of a fid's list of keys in a state. */
  keyAt: (fid: bigint, state: number, index: bigint) => `keys/${fid}/${state}/at/${index}`,
  /** KeyRegistry: a key's place in its list, the inverse of keyAt. */
  keyIndex: (fid: bigint, state: number, key: Hex) => `keys/${fid}/${state}/index/${key.toLowerCase()}`,
  /** StorageRegistry: units ever rented. */
  rentedUnits: () => "storage/rented",
} as const;

/** Buffers a call's writes over a reader: reads see them; `writes` is what the call changed. */
export class StateOverlay implements StateReader {
  readonly writes = new Map<string, string>();

  constructor(private readonly base: StateReader) {}

  async get(key: string): Promise<string | undefined> {
    return this.writes.has(key) ? this.writes.get(key) : this.base.get(key);
  }

  set(key: string, value: string): void {
    this.writes.set(key, value);
  }

  async getBigInt(key: string): Promise<bigint> {
    return BigInt((await this.get(key)) ?? "0");
  }

  setBigInt(key: string, value: bigint): void {
    this.set(key, value.toString());
  }

  /** A nested overlay for a call that may revert on its own (the writes join this one on `commit`). */
  child(): StateOverlay {
    return new StateOverlay(this);
  }

  /** Keeps a child's writes. */
  commit(child: StateOverlay): void {
    for (const [key, value] of child.writes) this.writes.set(key, value);
  }
}

/** A log a call emitted: the contract's address, its topics and its data. */
export interface EmittedLog {
  address: Address;
  topics: [Hex, ...Hex[]];
  data: Hex;
}

/** What a modelled call runs with. */
export interface CallContext {
  state: StateOverlay;
  /** The transaction's sender: who pays, who gets refunds. */
  origin: Address;
  /** msg.sender of this call. */
  sender: Address;
  /** Wei sent with this call. */
  value: bigint;
  block: { number: bigint; timestamp: bigint };
  chainId: number;
  /** Logs emitted so far in the transaction; a call appends its own. */
  logs: EmittedLog[];
  prices: ChainPrices;
}

/** The chain's configured prices. */
export interface ChainPrices {
  /** Wei for one storage unit (StorageRegistry.unitPrice). */
  storageUnitPrice: bigint;
  /** StorageRegistry.maxUnits. */
  maxStorageUnits: bigint;
  /** KeyRegistry.maxKeysPerFid. */
  maxKeysPerFid: bigint;
}

/** A modelled revert: its ABI-encoded data (an error selector and arguments, or empty). */
export class Revert extends Error {
  constructor(
    readonly data: Hex,
    /** The error's name for messages and logs, e.g. "InvalidPayment". */
    readonly errorName: string,
  ) {
    super(`execution reverted: ${errorName}`);
    this.name = "Revert";
  }
}
