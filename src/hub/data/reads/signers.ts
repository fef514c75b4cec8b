/**
 * Every key of a fid, whichever way it was added: on chain (a KeyRegistry event) or by a KEY_ADD
 * message (data/gaslessKeys.ts), as the successor node's GetSigner and GetSignersByFid list them.
 * On-chain keys come first, in chain order, then keys added by message, in key order.
 */
import type { Kysely } from "kysely";
import type { OnChainEvent } from "../../../protocol/generated/onchain_event.js";
import {
  SignerSource,
  type Signer,
  type SignersByFidResponse,
} from "../../../protocol/generated/request_response.js";
import { MAX_GASLESS_KEYS_PER_FID } from "../../../protocol/validation/index.js";
import { fromProtocolTime } from "../../../protocol/time.js";
import { notFound } from "../../errors.js";
import {
  appNonces,
  gaslessKey,
  gaslessKeysOf,
  userNonce,
  scopesOf,
  type GaslessKeyRow,
} from "../gaslessKeys.js";
import type { OnChainReads } from "./onchain.js";
import { chainOrderKey, pageInMemory, type KeyPageRequest } from "../paging.js";
import type { HubTables } from "../tables.js";

type Db = Kysely<HubTables>;

const unixSeconds = (protocolSeconds: number) => fromProtocolTime(protocolSeconds) / 1000;

function fromOnChain(event: OnChainEvent): Signer {
  return {
    source: SignerSource.ONCHAIN,
    key: event.signerEventBody!.key,
    keyType: event.signerEventBody!.keyType,
    fid: event.fid,
    addedAt: event.blockTimestamp,
    scopes: [],
    onchainEvent: event,
  };
}

function fromMessage(row: GaslessKeyRow): Signer {
  const lastUsedAt = unixSeconds(row.last_used_at);
  return {
    source: SignerSource.OFFCHAIN,
    key: row.key,
    keyType: 1,
    fid: row.fid,
    addedAt: unixSeconds(row.added_at),
    lastUsedAt,
    ttl: row.ttl,
    expiresAt: lastUsedAt + row.ttl,
    scopes: scopesOf(row.scopes),
    requestFid: row.request_fid,
    nonce: row.nonce,
  };
}

/** The lengths of its page keys: an on-chain key's (source and chain order), a message-added key's. */
export const SIGNER_PAGE_KEY_LENGTHS: readonly number[] = [9, 33];

/** A signer's place in the combined list, as a page key: its source, then its order within it. */
function pageKey(signer: Signer): Uint8Array {
  const within = signer.onchainEvent === undefined ? signer.key : chainOrderKey(signer.onchainEvent);
  return new Uint8Array([signer.source, ...within]);
}

export interface SignersByFidRequest {
  fid: number;
  page: KeyPageRequest;
  /** Apps whose self-revocation nonce the answer carries. */
  requesterFids: readonly number[];
}

export class SignerReads {
  constructor(
    private readonly db: Db,
    private readonly onChain: OnChainReads,
  ) {}

  /** One active key of the fid, on chain first as the merge looks it up. */
  async signer(fid: number, key: Uint8Array): Promise<Signer> {
    const event = await this.onChain.activeSigner(fid, key);
    if (event !== undefined) return fromOnChain(event);
    const row = await gaslessKey(this.db, fid, key);
    if (row === undefined) throw notFound("active signer");
    return fromMessage(row);
  }

  async signersByFid(request: SignersByFidRequest): Promise<SignersByFidResponse> {
    const { fid, page } = request;
    // A fid holds at most a thousand keys of each kind, so the two lists are paged together in memory.
    const onChain = (await this.onChain.signersByFid(fid)).map(fromOnChain);
    const byMessage = (await gaslessKeysOf(this.db, fid)).map(fromMessage);
    const { items, next } = pageInMemory([...onChain, ...byMessage], page, pageKey);
    const nonces = await appNonces(this.db, request.requesterFids);
    return {
      signers: items,
      nextPageToken: next,
      gaslessSignerCount: byMessage.length,
      gaslessSignerLimit: MAX_GASLESS_KEYS_PER_FID,
      currentUserNonce: await userNonce(this.db, fid),
      requesterFidNonces: Object.fromEntries(nonces),
    };
  }
}
