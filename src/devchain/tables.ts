import type { Generated, Kysely } from "kysely";

/** The devchain's tables and its migrations ledger are named `chain_…`. */
export const DEVCHAIN_TABLE_PREFIX = "chain";

/** The devchain's tables: the ledger's (src/devchain/ledger/). */
export interface DevchainTables {
  chain_blocks: {
    number: number;
    hash: Uint8Array;
    parent_hash: Uint8Array;
    timestamp: number;
    /** Wei, decimal. */
    base_fee_per_gas: Generated<string>;
    gas_used: Generated<number>;
    /** 256 bytes: the bloom of the block's logs (ledger/bloom.ts). */
    logs_bloom: Uint8Array;
  };
  /** Every value of the modelled state (src/devchain/contracts/state.ts) with the block that wrote it. */
  chain_state: { key: string; block_number: number; value: string };
  /**
   * Every transaction: signed ones as sent (`raw`), and the operator writes of the REST routes
   * (`operator`: the action as JSON). Receipt columns stay null until mined. Amounts are decimal wei.
   */
  chain_txs: {
    seq: number;
    hash: Uint8Array;
    sender: string;
    recipient: string | null;
    nonce: number;
    value: string;
    input: Uint8Array;
    type: number;
    gas: number;
    gas_price: string | null;
    max_fee: string | null;
    max_priority_fee: string | null;
    raw: Uint8Array | null;
    operator: string | null;
    block_number: number | null;
    tx_index: number | null;
    status: number | null;
    gas_used: number | null;
    effective_gas_price: string | null;
    /** What the call returned, or its revert data. */
    output: Uint8Array | null;
  };
  chain_logs: {
    block_number: number;
    log_index: number;
    tx_seq: number;
    address: string;
    topic0: Uint8Array | null;
    topic1: Uint8Array | null;
    topic2: Uint8Array | null;
    topic3: Uint8Array | null;
    data: Uint8Array;
    /** The log as eth_getLogs answers it (ledger/logJson.ts). */
    json: string;
  };
}

export type DevchainDb = Kysely<DevchainTables>;
