/**
 * HubService: everything the hub does, without HTTP. Routes, the client API's power-badge job and
 * tests call it in process. Writes go to the merge engine; each domain's reads are in reads/.
 */
import type { ActivitySource } from "../interfaces/activity.js";
import { HubError } from "../protocol/errors.js";
import type { HubEvent as HubEventMessage } from "../protocol/generated/hub_event.js";
import type { CastId, ReactionType, UserDataType } from "../protocol/generated/message.js";
import type { OnChainEvent, OnChainEventType } from "../protocol/generated/onchain_event.js";
import type { UserNameProof } from "../protocol/generated/username_proof.js";
import { toHexJson } from "../protocol/json/bytes.js";
import { writeMessageJson } from "../protocol/json/index.js";
import { decodeMessage } from "../protocol/message.js";
import { PROTOCOL_EPOCH_MS, toProtocolTime } from "../protocol/time.js";
import type { HubCore } from "./core.js";
import type { Accepted, MergeEngine } from "./merge/engine.js";
import { EVENTS_PAGE_SIZE, pruneEvents } from "./data/events.js";
import { pruneExpiredStorage } from "./jobs.js";
import type { ListContext } from "./data/messageReads.js";
import { reactorsByAuthor } from "./data/statistics.js";
import type { KeyPageRequest } from "./data/paging.js";
import * as eventReads from "./data/reads/events.js";
import { hubInfo, type HubIdentity, type HubInfo } from "./data/reads/info.js";
import * as messageReads from "./data/reads/messages.js";
import type { MessagePage } from "./data/reads/messages.js";
import * as nameReads from "./data/reads/names.js";
import * as onChainReads from "./data/reads/onchain.js";
import { storageLimits, type StorageLimitsJson } from "./data/reads/storage.js";

export type { KeyPageRequest } from "./data/paging.js";
export { pageToken } from "./data/paging.js";
export type { HubInfo } from "./data/reads/info.js";
export type { MessagePage } from "./data/reads/messages.js";
export type { StorageLimitsJson } from "./data/reads/storage.js";

export type BulkOutcome =
  { ok: true; json: string; bytes: Uint8Array } | { ok: false; hash: string; error: HubError };

export interface Followers {
  syncChain(): Promise<void>;
  syncNames(): Promise<void>;
}

export class HubService implements ActivitySource {
  private readonly lists: ListContext;

  constructor(
    private readonly core: HubCore,
    private readonly engine: MergeEngine,
    private readonly followers: Followers,
    private readonly identity: HubIdentity,
  ) {
    this.lists = {
      database: core.database,
      profile: core.profile.name,
      render: (bytes) => writeMessageJson(decodeMessage(bytes).message, core.profile),
    };
  }

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

  castById(fid: number, hash: Uint8Array): Promise<string> {
    return messageReads.castById(this.lists, fid, hash);
  }

  /** The stored cast whose hash lies in [low, high] (a hash, or the range a prefix spans). */
  castByHash(low: Uint8Array, high: Uint8Array): Promise<string> {
    return messageReads.castByHash(this.lists, low, high);
  }

  /** Adds and removes, as the reference lists them. */
  async castsByFid(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return messageReads.castsByFid(this.lists, fid, page);
  }

  async castsByParent(parent: CastId | string, page: KeyPageRequest): Promise<MessagePage> {
    return messageReads.castsByParent(this.lists, parent, page);
  }

  async castsByMention(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return messageReads.castsByMention(this.lists, fid, page);
  }

  reactionById(fid: number, type: ReactionType, target: CastId | string): Promise<string> {
    return messageReads.reactionById(this.lists, fid, type, target);
  }

  async reactionsByFid(
    fid: number,
    type: ReactionType | undefined,
    page: KeyPageRequest,
  ): Promise<MessagePage> {
    return messageReads.reactionsByFid(this.lists, fid, type, page);
  }

  async reactionsByTarget(
    target: CastId | string,
    type: ReactionType | undefined,
    page: KeyPageRequest,
  ): Promise<MessagePage> {
    return messageReads.reactionsByTarget(this.lists, target, type, page);
  }

  linkById(fid: number, type: string, targetFid: number): Promise<string> {
    return messageReads.linkById(this.lists, fid, type, targetFid);
  }

  async linksByFid(fid: number, type: string | undefined, page: KeyPageRequest): Promise<MessagePage> {
    return messageReads.linksByFid(this.lists, fid, type, page);
  }

  async linksByTargetFid(
    targetFid: number,
    type: string | undefined,
    page: KeyPageRequest,
  ): Promise<MessagePage> {
    return messageReads.linksByTargetFid(this.lists, targetFid, type, page);
  }

  userData(fid: number, type: UserDataType): Promise<string> {
    return messageReads.userData(this.lists, fid, type);
  }

  async userDataByFid(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return messageReads.userDataByFid(this.lists, fid, page);
  }

  verification(fid: number, address: Uint8Array): Promise<string> {
    return messageReads.verification(this.lists, fid, address);
  }

  async verificationsByFid(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return messageReads.verificationsByFid(this.lists, fid, page);
  }

  // On-chain events.

  async onChainSignersByFid(fid: number): Promise<OnChainEvent[]> {
    return onChainReads.signersByFid(this.db, fid);
  }

  async onChainSigner(fid: number, key: Uint8Array): Promise<OnChainEvent> {
    return onChainReads.signer(this.db, fid, key);
  }

  async onChainEventsByFid(fid: number, type: OnChainEventType): Promise<OnChainEvent[]> {
    return onChainReads.eventsByFid(this.db, fid, type);
  }

  async onChainIdRegistryEventByAddress(address: Uint8Array): Promise<OnChainEvent> {
    return onChainReads.idRegistryEventByAddress(this.db, address);
  }

  async fids(page: KeyPageRequest): Promise<{ fids: number[]; nextPageToken?: string }> {
    return onChainReads.fids(this.db, page);
  }

  async storageLimitsByFid(fid: number): Promise<StorageLimitsJson> {
    return storageLimits(this.db, fid, this.core.now());
  }

  // Username proofs.

  async userNameProofByName(name: string): Promise<UserNameProof> {
    return nameReads.proofByName(this.db, name);
  }

  /** The fid's fname proofs first, then its name-service proofs. */
  async userNameProofsByFid(fid: number): Promise<UserNameProof[]> {
    return nameReads.proofsByFid(this.db, fid);
  }

  // Hub events.

  /** Events with id ≥ fromId, oldest first, at most 100; the next page starts at the last id + 1. */
  async events(
    fromId: number,
    limit = EVENTS_PAGE_SIZE,
  ): Promise<{ events: HubEventMessage[]; nextPageEventId: number }> {
    return eventReads.eventsPage(this.db, fromId, limit);
  }

  /** Id of the newest event, or 0 when there is none. */
  async lastEventId(): Promise<number> {
    return eventReads.lastEventId(this.db);
  }

  /** Calls `listener` after events commit in this process; returns the function that stops it. */
  onEvents(listener: () => void): () => void {
    return this.core.bus.subscribe(listener);
  }

  async eventById(id: number): Promise<HubEventMessage> {
    return eventReads.event(this.db, id);
  }

  // Activity for the client API's power badges.

  async reactorsByAuthor(sinceUnixSeconds: number): Promise<Map<number, number>> {
    const since = toProtocolTime(Math.max(sinceUnixSeconds * 1000, PROTOCOL_EPOCH_MS));
    return reactorsByAuthor(this.db, since);
  }

  // Operations.

  async info(withStats: boolean): Promise<HubInfo> {
    return hubInfo(this.core.database, this.identity, withStats);
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

function claimedHash(bytes: Uint8Array): string {
  try {
    const hash = decodeMessage(bytes).message.hash;
    return toHexJson(hash);
  } catch {
    return "";
  }
}
