import type { Kysely } from "kysely";

/** The devchain's tables and its migrations ledger are named `chain_…`. */
export const DEVCHAIN_TABLE_PREFIX = "chain";

/** The devchain's tables. Rows are written when a transaction is submitted; `*block*` columns stay null until it is mined. */
export interface DevchainTables {
  chain_blocks: { number: number; hash: Uint8Array; parent_hash: Uint8Array; timestamp: number };
  chain_transactions: {
    seq: number;
    hash: Uint8Array;
    kind: TransactionKind;
    fid: number;
    block_number: number | null;
    tx_index: number | null;
  };
  chain_fids: { fid: number; custody: string; recovery: string; tx_seq: number; block_number: number | null };
  chain_signers: {
    fid: number;
    key: Uint8Array;
    key_type: number;
    metadata_type: number;
    metadata: Uint8Array;
    add_tx_seq: number;
    added_block: number | null;
    remove_tx_seq: number | null;
    removed_block: number | null;
  };
  chain_storage: {
    tx_seq: number;
    fid: number;
    units: number;
    payer: string;
    block_number: number | null;
    /** Unix seconds; set when mined (block time + 365 days). */
    expires_at: number | null;
  };
  /** Mined events as OnChainEvent protobuf bytes. */
  chain_events: { block_number: number; log_index: number; tx_seq: number; event: Uint8Array };
}

export type TransactionKind = "register" | "signer_add" | "signer_remove" | "storage_rent";

export type DevchainDb = Kysely<DevchainTables>;
