/**
 * HubService: everything the hub does, without HTTP. Routes, the client API's power-badge job and
 * tests call it in process.
 */
import type { ActivitySource } from "../clientapi/activity.js";
import { HubError } from "../protocol/errors.js";
import type { HubEvent as HubEventMessage } from "../protocol/generated/hub_event.js";
import type { ReactionType, UserDataType } from "../protocol/generated/message.js";
import { MessageType, type CastId } from "../protocol/generated/message.js";
import { OnChainEvent, OnChainEventType, SignerEventType } from "../protocol/generated/onchain_event.js";
import type { UserNameProof } from "../protocol/generated/username_proof.js";
import { toHexJson } from "../protocol/json/bytes.js";
import { writeMessageJson } from "../protocol/json/index.js";
import { decodeMessage } from "../protocol/message.js";
import { PROTOCOL_EPOCH_MS, toProtocolTime } from "../protocol/time.js";
import type { HubCore } from "./core.js";
import type { Accepted, MergeEngine } from "./engine.js";
import { EVENTS_PAGE_SIZE, eventById, eventsFrom, newestEventId, pruneEvents } from "./events.js";
import { proofOfRow } from "./fnames.js";
import { pruneExpiredStorage } from "./jobs.js";
import { castIdKey, fidKey, nameKey, STORE_NAMES, STORE_TYPES, StoreType, u8, urlKey } from "./keys.js";
import { loadStorage } from "./limits.js";
import { linkSetKey } from "./stores/links.js";
import { reactionSetKey } from "./stores/reactions.js";
import * as messageReads from "./messages.js";
import { fnameProof, fnameProofsOf, usernameProofByName, usernameProofMessages } from "./names.js";
import { activeSignerEvents, fids, idRegisterEventByAddress, onChainEvents } from "./onchain.js";

export type { PageRequest } from "./paging.js";

export interface MessagePage {
  /** The page's messages as JSON, joined with commas (the inside of the `messages` array). */
  messages: string;
  /** Standard base64 of the last key; "" on the last page. */
  nextPageToken: string;
}

export type BulkOutcome =
  { ok: true; json: string; bytes: Uint8Array } | { ok: false; hash: string; error: HubError };

export interface StorageLimitsJson {
  limits: {
    storeType: string;
    name: string;
    limit: number;
    used: number;
    earliestTimestamp: number;
    earliestHash: string;
  }[];
  units: number;
  unitDetails: { unitType: string; unitSize: number }[];
}

export interface HubInfo {
  version: string;
  isSyncing: boolean;
  nickname: string;
  rootHash: string;
  dbStats?: { numMessages: number; numFidEvents: number; numFnameEvents: number; approxSize: number };
  peerId: string;
  hubOperatorFid: number;
}

export interface Followers {
  syncChain(): Promise<void>;
  syncNames(): Promise<void>;
}

const ON_CHAIN_LIST_LIMIT = 10_000;
const utf8 = new TextEncoder();

export function pageToken(key: Uint8Array | undefined): string {
  return key === undefined ? "" : Buffer.from(key).toString("base64");
}

function notFound(what: string): HubError {
  return new HubError("not_found", `${what} not found`);
}

export class HubService implements ActivitySource {
  constructor(
    private readonly core: HubCore,
    private readonly engine: MergeEngine,
    private readonly followers: Followers,
    private readonly identity: { version: string; peerId: string; nickname: string },
  ) {
    this.lists = {
      database: core.database,
      profile: core.profile.name,
      render: (bytes) => writeMessageJson(decodeMessage(bytes).message, core.profile),
    };
  }

  private readonly lists: messageReads.ListContext;

  private get db() {
    return this.core.database.db;
  }

  // Writes.

  /** Merges one message (protobuf bytes); resolves with its JSON once it is durably stored. */
  async submitMessage(bytes: Uint8Array): Promise<string> {
    return (await this.engine.submit(bytes)).json;
  }

  /**
   * Merges each message on its own, in order, and reports each: its JSON, or its error with the
   * hash it claimed. Checks run concurrently; merges keep the input order.
   */
  async submitBulkMessages(messages: readonly Uint8Array[]): Promise<BulkOutcome[]> {
    const prepared = await Promise.allSettled(messages.map((bytes) => this.engine.prepare(bytes)));
    // Queued in input order, so that messages of one bulk merge in the order they were sent.
    const committed = prepared.map((p) =>
      p.status === "fulfilled" ? this.engine.commit(p.value) : Promise.reject(p.reason),
    );
    const settled = await Promise.allSettled(committed);
    return settled.map((outcome, i) => {
      if (outcome.status === "fulfilled") {
        const { json, bytes } = outcome.value as Accepted;
        return { ok: true, json, bytes };
      }
      const error =
        outcome.reason instanceof HubError
          ? outcome.reason
          : new HubError("unknown", "the message could not be merged");
      return { ok: false, hash: claimedHash(messages[i]!), error };
    });
  }

  /** Every check of submitMessage without storing; frame actions pass too. */
  async validateMessage(bytes: Uint8Array): Promise<string> {
    return (await this.engine.validate(bytes)).json;
  }

  /** submitMessage and validateMessage answering the message's protobuf bytes (the gRPC API). */
  async submitMessageBytes(bytes: Uint8Array): Promise<Uint8Array> {
    return (await this.engine.submit(bytes)).bytes;
  }

  async validateMessageBytes(bytes: Uint8Array): Promise<Uint8Array> {
    return (await this.engine.validate(bytes)).bytes;
  }

  // Messages.

  /** A stored message's JSON, rendered again if it was stored under another naming profile. */
  private json(row: messageReads.JsonRow): string {
    return row.json_profile === this.lists.profile ? row.json : this.lists.render(row.message);
  }

  private page(page: messageReads.JsonPage): MessagePage {
    return { messages: page.joined, nextPageToken: pageToken(page.next) };
  }

  private async one(row: Promise<messageReads.JsonRow | undefined>, what: string): Promise<string> {
    const found = await row;
    if (found === undefined) throw notFound(what);
    return this.json(found);
  }

  castById(fid: number, hash: Uint8Array): Promise<string> {
    return this.one(
      messageReads.messageBySetKey(this.db, fid, StoreType.CASTS, hash, MessageType.CAST_ADD),
      "cast",
    );
  }

  /** Adds and removes, as the reference lists them. */
  async castsByFid(fid: number, page: messageReads.PageRequest): Promise<MessagePage> {
    return this.page(await messageReads.messagesByFid(this.lists, fid, StoreType.CASTS, {}, page));
  }

  async castsByParent(parent: CastId | string, page: messageReads.PageRequest): Promise<MessagePage> {
    const target = typeof parent === "string" ? urlKey(parent) : castIdKey(parent);
    return this.page(
      await messageReads.messagesByTarget(this.lists, StoreType.CASTS, target, undefined, page),
    );
  }

  async castsByMention(fid: number, page: messageReads.PageRequest): Promise<MessagePage> {
    return this.page(await messageReads.castsByMention(this.lists, fid, page));
  }

  reactionById(fid: number, type: ReactionType, target: CastId | string): Promise<string> {
    const body = typeof target === "string" ? { type, targetUrl: target } : { type, targetCastId: target };
    const key = reactionSetKey(body);
    return this.one(
      messageReads.messageBySetKey(this.db, fid, StoreType.REACTIONS, key, MessageType.REACTION_ADD),
      "reaction",
    );
  }

  async reactionsByFid(
    fid: number,
    type: ReactionType | undefined,
    page: messageReads.PageRequest,
  ): Promise<MessagePage> {
    const filter = { types: [MessageType.REACTION_ADD], kind: type === undefined ? undefined : String(type) };
    return this.page(await messageReads.messagesByFid(this.lists, fid, StoreType.REACTIONS, filter, page));
  }

  async reactionsByTarget(
    target: CastId | string,
    type: ReactionType | undefined,
    page: messageReads.PageRequest,
  ): Promise<MessagePage> {
    const key = typeof target === "string" ? urlKey(target) : castIdKey(target);
    const kind = type === undefined ? undefined : String(type);
    return this.page(await messageReads.messagesByTarget(this.lists, StoreType.REACTIONS, key, kind, page));
  }

  linkById(fid: number, type: string, targetFid: number): Promise<string> {
    const key = linkSetKey(type, targetFid);
    return this.one(
      messageReads.messageBySetKey(this.db, fid, StoreType.LINKS, key, MessageType.LINK_ADD),
      "link",
    );
  }

  async linksByFid(
    fid: number,
    type: string | undefined,
    page: messageReads.PageRequest,
  ): Promise<MessagePage> {
    const filter = { types: [MessageType.LINK_ADD], kind: type };
    return this.page(await messageReads.messagesByFid(this.lists, fid, StoreType.LINKS, filter, page));
  }

  async linksByTargetFid(
    targetFid: number,
    type: string | undefined,
    page: messageReads.PageRequest,
  ): Promise<MessagePage> {
    return this.page(
      await messageReads.messagesByTarget(this.lists, StoreType.LINKS, fidKey(targetFid), type, page),
    );
  }

  userData(fid: number, type: UserDataType): Promise<string> {
    return this.one(
      messageReads.messageBySetKey(this.db, fid, StoreType.USER_DATA, u8(type), MessageType.USER_DATA_ADD),
      "user data",
    );
  }

  async userDataByFid(fid: number, page: messageReads.PageRequest): Promise<MessagePage> {
    return this.page(await messageReads.messagesByFid(this.lists, fid, StoreType.USER_DATA, {}, page));
  }

  verification(fid: number, address: Uint8Array): Promise<string> {
    return this.one(
      messageReads.messageBySetKey(
        this.db,
        fid,
        StoreType.VERIFICATIONS,
        address,
        MessageType.VERIFICATION_ADD_ETH_ADDRESS,
      ),
      "verification",
    );
  }

  async verificationsByFid(fid: number, page: messageReads.PageRequest): Promise<MessagePage> {
    const filter = { types: [MessageType.VERIFICATION_ADD_ETH_ADDRESS] };
    return this.page(
      await messageReads.messagesByFid(this.lists, fid, StoreType.VERIFICATIONS, filter, page),
    );
  }

  // On-chain events.

  async onChainSignersByFid(fid: number): Promise<OnChainEvent[]> {
    return (await activeSignerEvents(this.db, fid, undefined))
      .map((bytes) => OnChainEvent.decode(bytes))
      .filter(isAdd);
  }

  async onChainSigner(fid: number, key: Uint8Array): Promise<OnChainEvent> {
    const event = (await activeSignerEvents(this.db, fid, key))
      .map((bytes) => OnChainEvent.decode(bytes))
      .find(isAdd);
    if (event === undefined) throw notFound("active signer");
    return event;
  }

  async onChainEventsByFid(fid: number, type: OnChainEventType): Promise<OnChainEvent[]> {
    if (type === OnChainEventType.EVENT_TYPE_SIGNER_MIGRATED && fid !== 0) {
      throw new HubError("bad_request.invalid_param", "signer migrated events have fid 0");
    }
    const events = await onChainEvents(this.db, fid, type, ON_CHAIN_LIST_LIMIT);
    return events.map((bytes) => OnChainEvent.decode(bytes));
  }

  async onChainIdRegistryEventByAddress(address: Uint8Array): Promise<OnChainEvent> {
    const event = await idRegisterEventByAddress(this.db, address);
    if (event === undefined) throw notFound("id registry event");
    return OnChainEvent.decode(event);
  }

  async fids(page: messageReads.PageRequest): Promise<{ fids: number[]; nextPageToken?: string }> {
    const result = await fids(this.db, page);
    return result.next === undefined
      ? { fids: result.items }
      : { fids: result.items, nextPageToken: pageToken(result.next) };
  }

  async storageLimitsByFid(fid: number): Promise<StorageLimitsJson> {
    const storage = await loadStorage(this.db, fid, this.core.now());
    const counts = await messageReads.storeCounts(this.db, fid);
    const limits = [];
    for (const type of STORE_TYPES) {
      const earliest = await messageReads.earliestMessage(this.db, fid, type);
      limits.push({
        storeType: `STORE_TYPE_${STORE_NAMES[type]}`,
        name: STORE_NAMES[type],
        limit: storage.limit(type),
        used: counts.get(type) ?? 0,
        earliestTimestamp: earliest?.timestamp ?? 0,
        earliestHash: earliest === undefined ? "" : Buffer.from(earliest.hash).toString("base64"),
      });
    }
    return {
      limits,
      units: storage.total,
      unitDetails: [
        { unitType: "UNIT_TYPE_LEGACY", unitSize: storage.units.legacy },
        { unitType: "UNIT_TYPE_2024", unitSize: storage.units["2024"] },
      ],
    };
  }

  // Username proofs.

  async userNameProofByName(name: string): Promise<UserNameProof> {
    const fname = await fnameProof(this.db, name);
    if (fname !== undefined) return proofOfRow(fname);
    const message = (await usernameProofByName(this.db, nameKey(utf8.encode(name))))?.message;
    const proof = message === undefined ? undefined : decodeMessage(message).message.data?.usernameProofBody;
    if (proof === undefined) throw notFound("username proof");
    return proof;
  }

  /** The fid's fname proofs first, then its name-service proofs. */
  async userNameProofsByFid(fid: number): Promise<UserNameProof[]> {
    const proofs = (await fnameProofsOf(this.db, fid)).map(proofOfRow);
    for (const message of await usernameProofMessages(this.db, fid)) {
      const proof = decodeMessage(message).message.data?.usernameProofBody;
      if (proof !== undefined) proofs.push(proof);
    }
    return proofs;
  }

  // Hub events.

  /** Events with id ≥ fromId, oldest first, at most 100; the next page starts at the last id + 1. */
  async events(
    fromId: number,
    limit = EVENTS_PAGE_SIZE,
  ): Promise<{ events: HubEventMessage[]; nextPageEventId: number }> {
    const events = await eventsFrom(this.db, fromId, limit);
    const last = events[events.length - 1];
    return { events, nextPageEventId: last === undefined ? fromId + 1 : last.id + 1 };
  }

  /** Id of the newest event, or 0 when there is none. */
  async lastEventId(): Promise<number> {
    return (await newestEventId(this.db)) ?? 0;
  }

  /** Calls `listener` after events commit in this process; returns the function that stops it. */
  onEvents(listener: () => void): () => void {
    return this.core.bus.subscribe(listener);
  }

  async eventById(id: number): Promise<HubEventMessage> {
    const event = await eventById(this.db, id);
    if (event === undefined) throw notFound("event");
    return event;
  }

  // Activity for the client API's power badges.

  async reactorsByAuthor(sinceUnixSeconds: number): Promise<Map<number, number>> {
    const since = toProtocolTime(Math.max(sinceUnixSeconds * 1000, PROTOCOL_EPOCH_MS));
    return messageReads.reactorsByAuthor(this.db, since);
  }

  // Operations.

  async info(withStats: boolean): Promise<HubInfo> {
    const dbStats = withStats
      ? {
          ...(await messageReads.statistics(this.db)),
          approxSize: await messageReads.approximateSize(this.core.database),
        }
      : undefined;
    // Key order as the reference writes it.
    return {
      version: this.identity.version,
      isSyncing: false,
      nickname: this.identity.nickname,
      rootHash: "",
      ...(dbStats === undefined ? {} : { dbStats }),
      peerId: this.identity.peerId,
      hubOperatorFid: 0,
    };
  }

  /** Merges every on-chain event mined so far. */
  syncChain(): Promise<void> {
    return this.followers.syncChain();
  }

  /** Merges every registry transfer published so far. */
  syncNames(): Promise<void> {
    return this.followers.syncNames();
  }

  /** Deletes hub events older than three days (hourly on its own). */
  pruneEvents(): Promise<number> {
    return pruneEvents(this.db, this.core.now());
  }

  /** Prunes fids whose storage shrank down to their limits (hourly on its own). */
  pruneMessages(): Promise<number> {
    return pruneExpiredStorage(this.core);
  }
}

function isAdd(event: OnChainEvent): boolean {
  return event.signerEventBody?.eventType === SignerEventType.ADD;
}

function claimedHash(bytes: Uint8Array): string {
  try {
    const hash = decodeMessage(bytes).message.hash;
    return toHexJson(hash);
  } catch {
    return "";
  }
}
