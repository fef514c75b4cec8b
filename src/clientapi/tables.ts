import type { Generated, Kysely } from "kysely";
import type { KeyRequestState } from "./keyRequests/states.js";
import type { AuthMethod } from "./signIn/verify.js";

/** The client API's tables and its migrations ledger are named `api_…`. */
export const CLIENT_API_TABLE_PREFIX = "api";

/** The client API's tables. Times are Unix seconds; booleans are 0/1. */
export interface ClientApiTables {
  api_settings: { name: string; value: string };
  api_channels: {
    id: string;
    url: string;
    name: string;
    description: string | null;
    /** JSON arrays of integers, set together with the description. */
    description_mentions: string | null;
    description_mentions_positions: string | null;
    image_url: string;
    header_image_url: string | null;
    lead_fid: number | null;
    moderator_fid: number | null;
    /** JSON array of integers. */
    moderator_fids: string | null;
    created_at: number;
    follower_count: number;
    member_count: number | null;
    pinned_cast_hash: string | null;
    public_casting: number | null;
    external_link_title: string | null;
    external_link_url: string | null;
  };
  api_channel_follows: { id: Generated<number>; channel_id: string; fid: number; followed_at: number };
  api_blocks: { id: Generated<number>; blocker_fid: number; blocked_fid: number; created_at: number };
  api_actions: {
    id: Generated<number>;
    kind: ActionKind;
    name: string;
    icon: string;
    description: string;
    about_url: string;
    action_url: string;
    post_url: string;
    image_url: string | null;
    install_count: number;
    /** Position in the curated featured list (composer actions), null when not featured. */
    featured_rank: number | null;
    created_at: number;
  };
  api_action_installs: { action_id: number; fid: number; installed_at: number };
  api_power_badge_computed: { fid: number };
  api_power_badge_overrides: { fid: number; granted: number; set_at: number };
  api_power_badge_runs: {
    id: Generated<number>;
    /** The Tuesday 12:00 UTC this run stands for; null for a run triggered by hand. */
    slot: number | null;
    ran_at: number;
    computed_count: number;
  };
  api_sponsors: { fid: number; credits: number; updated_at: number };
  api_signed_key_requests: {
    token: string;
    key: string;
    request_fid: number;
    request_signer: string;
    signature: string;
    deadline: number;
    redirect_url: string | null;
    sponsor_fid: number | null;
    sponsor_signature: string | null;
    state: KeyRequestState;
    user_fid: number | null;
    transaction_hash: string | null;
    /** Credits taken from the sponsor for the current approval (0 when none). */
    charged: number;
    /** The custody address and key gateway nonce the current approval took (null before one). */
    approval_custody: string | null;
    approval_nonce: number | null;
    created_at: number;
    updated_at: number;
  };
  api_gateway_nonces: { custody: string; nonce: number };
  /** Sign-in channels; the signature params are the app's strings as it sent them. */
  api_sign_in_channels: {
    token: string;
    state: "pending" | "completed";
    nonce: string;
    siwe_uri: string;
    domain: string;
    not_before: string | null;
    expiration_time: string | null;
    request_id: string | null;
    redirect_url: string | null;
    /** 0/1 as the app sent it; null when it did not (auth addresses are then accepted). */
    accept_auth_address: number | null;
    client_ip: string;
    user_agent: string;
    created_at: number;
    expires_at: number;
    // Set once, when the channel completes.
    message: string | null;
    signature: string | null;
    auth_method: AuthMethod | null;
    fid: number | null;
    username: string | null;
    display_name: string | null;
    bio: string | null;
    pfp_url: string | null;
    custody: string | null;
    /** JSON array of addresses. */
    verifications: string | null;
  };
  /** Quick Auth's nonces, each deleted by the one sign-in that uses it. */
  api_quick_auth_nonces: { nonce: string; expires_at: number };
  /**
   * Quick Auth's signing keys (PKCS #8 PEM). A key signs from `signs_from` until the next key does,
   * which is also its `retired_at`; it stays in the key set until its last token has expired.
   */
  api_quick_auth_keys: {
    kid: string;
    private_key: string;
    created_at: number;
    signs_from: number;
    retired_at: number | null;
  };
  /** `channels`: bumped by every write to a channel row (follower counts included). */
  api_versions: { name: string; version: number };
}

export type ActionKind = "cast" | "composer";

/** What every store function runs on: the database's handle, or the transaction it is given. */
export type ClientApiDb = Kysely<ClientApiTables>;
