/** The hub's tables and its migrations ledger are named `hub_…`. */
export const HUB_TABLE_PREFIX = "hub";

/**
 * The hub's tables. Every message is kept as the exact protobuf bytes it arrived in, beside the
 * columns its reads and merges seek on, and its JSON rendered once at merge time (reads concatenate
 * it instead of decoding and rendering every message of every page).
 */
export interface HubTables {
  hub_messages: {
    fid: number;
    /** StoreType (keys.ts). */
    store: number;
    /** Timestamp (4 bytes, big-endian) ‖ hash: the order of every list. */
    ts_hash: Uint8Array;
    /** The CRDT set key within (fid, store): one row per key at most. */
    set_key: Uint8Array;
    type: number;
    /** Protocol seconds. */
    timestamp: number;
    hash: Uint8Array;
    signer: Uint8Array;
    /** Subtype for filtered lists: reaction type, link type, user data type. */
    kind: string | null;
    /** Key of the by-target lists (adds only): parent or target cast, URL, target fid, address, name. */
    target: Uint8Array | null;
    /** Fid the message points at: the reacted-to cast's author, the followed fid, the parent cast's author. */
    target_fid: number | null;
    message: Uint8Array;
    json: string;
    /** Naming profile the JSON was rendered under. */
    json_profile: string;
  };
  hub_cast_mentions: { mention_fid: number; ts_hash: Uint8Array; fid: number };
  /** Messages per (fid, store), kept with every insert and delete so that limits never count rows. */
  hub_store_counts: { fid: number; store: number; count: number };
  hub_onchain_events: {
    fid: number;
    type: number;
    block_number: number;
    log_index: number;
    block_timestamp: number;
    /** Custody address of id-register events (for lookups by address). */
    address: Uint8Array | null;
    /** Key of signer events. */
    signer: Uint8Array | null;
    event: Uint8Array;
  };
  /** Newest signer event per (fid, key): whether the key may sign for the fid. */
  hub_signers: {
    fid: number;
    key: Uint8Array;
    event_type: number;
    key_type: number;
    block_number: number;
    log_index: number;
    version: number;
  };
  /** Keys added by KEY_ADD messages: what they may sign (a bit per MessageType) and until when. */
  hub_gasless_keys: {
    fid: number;
    key: Uint8Array;
    /** The app that requested the key: its nonce counts the key's self-revocations. */
    request_fid: number;
    /** Bit n set: the key may sign messages of type n. */
    scopes: number;
    /** Seconds the key stays valid after its last use. */
    ttl: number;
    nonce: number;
    /** Protocol seconds: the KEY_ADD's timestamp. */
    added_at: number;
    /** Protocol seconds: the newest message it signed, moved at most every few minutes. */
    last_used_at: number;
    /** The KEY_ADD message. */
    message: Uint8Array;
  };
  /** Nonce counters of key messages: a fid's user nonce (custody-signed), an app fid's (self-revocations). */
  hub_key_nonces: { fid: number; user_nonce: number; app_nonce: number };
  /** Registered fids and their custody address (newest register/transfer wins). */
  hub_fids: { fid: number; custody: Uint8Array; block_number: number; log_index: number };
  hub_fname_proofs: {
    name: string;
    fid: number;
    /** Unix seconds. */
    timestamp: number;
    owner: Uint8Array;
    signature: Uint8Array;
    transfer_id: number;
  };
  /** HubEvent protobuf bytes by event id. */
  hub_events: { id: number; type: number; event: Uint8Array };
  /** One row: the last event id handed out; its row lock orders event ids by commit. */
  hub_event_counter: { id: number; last_id: number };
  /** Follower positions and other small facts (key → text). */
  hub_state: { key: string; value: string };
}
