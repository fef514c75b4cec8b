/** The hub's answers about on-chain events: active signers, a fid's events, registered fids. */
import type { Kysely } from "kysely";
import { HubError } from "../../../protocol/errors.js";
import {
  OnChainEvent,
  OnChainEventType,
  SignerEventType,
} from "../../../protocol/generated/onchain_event.js";
import { notFound } from "../../errors.js";
import * as stored from "../onchain.js";
import { pageToken, type KeyPageRequest } from "../paging.js";
import type { HubTables } from "../tables.js";

type Db = Kysely<HubTables>;

/** The most events one list answers with. */
const ON_CHAIN_LIST_LIMIT = 10_000;

function isAdd(event: OnChainEvent): boolean {
  return event.signerEventBody?.eventType === SignerEventType.ADD;
}

/** The hub's reads of the on-chain events it merged. */
export class OnChainReads {
  constructor(private readonly db: Db) {}

  async signersByFid(fid: number): Promise<OnChainEvent[]> {
    return (await stored.activeSignerEvents(this.db, fid, undefined))
      .map((bytes) => OnChainEvent.decode(bytes))
      .filter(isAdd);
  }

  /** The add event of the key, while it is an active signer of the fid. */
  async activeSigner(fid: number, key: Uint8Array): Promise<OnChainEvent | undefined> {
    return (await stored.activeSignerEvents(this.db, fid, key))
      .map((bytes) => OnChainEvent.decode(bytes))
      .find(isAdd);
  }

  async signer(fid: number, key: Uint8Array): Promise<OnChainEvent> {
    const event = await this.activeSigner(fid, key);
    if (event === undefined) throw notFound("active signer");
    return event;
  }

  async eventsByFid(fid: number, type: OnChainEventType): Promise<OnChainEvent[]> {
    if (type === OnChainEventType.EVENT_TYPE_SIGNER_MIGRATED && fid !== 0) {
      throw new HubError("bad_request.invalid_param", "signer migrated events have fid 0");
    }
    const events = await stored.onChainEvents(this.db, fid, type, ON_CHAIN_LIST_LIMIT);
    return events.map((bytes) => OnChainEvent.decode(bytes));
  }

  async idRegistryEventByAddress(address: Uint8Array): Promise<OnChainEvent> {
    const event = await stored.idRegisterEventByAddress(this.db, address);
    if (event === undefined) throw notFound("id registry event");
    return OnChainEvent.decode(event);
  }

  async fids(page: KeyPageRequest): Promise<{ fids: number[]; nextPageToken?: string }> {
    const result = await stored.fids(this.db, page);
    return result.next === undefined
      ? { fids: result.items }
      : { fids: result.items, nextPageToken: pageToken(result.next) };
  }
}
