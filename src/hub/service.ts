/**
 * HubService: everything the hub does, without HTTP. Routes, the client API's power-badge job and
 * tests call it in process. Writes go to the merge engine; reads are one class per domain
 * (data/reads/), exposed as `service.messages`, `service.onChain`, `service.signers`,
 * `service.addresses`, `service.names`, `service.events` and `service.storage`.
 */
import {
  type ActivitySource,
  type HubProfile,
  PROFILE_PAGE_SIZE,
  profileFromMessages,
} from "../interfaces/activity.js";
import { HubError } from "../protocol/errors.js";
import { toHexJson } from "../protocol/json/bytes.js";
import { writeMessageJson } from "../protocol/json/index.js";
import { decodeMessage } from "../protocol/message.js";
import { PROTOCOL_EPOCH_MS, toProtocolTime } from "../protocol/time.js";
import type { PooledText } from "../storage/index.js";
import type { HubCore } from "./core.js";
import type { Accepted, MergeEngine } from "./merge/engine.js";
import { pruneEvents } from "./data/events.js";
import { pruneExpiredStorage } from "./jobs.js";
import { reactorsByAuthor } from "./data/statistics.js";
import { AddressReads } from "./data/reads/addresses.js";
import { EventReads } from "./data/reads/events.js";
import { hubInfo, type HubIdentity, type HubInfo } from "./data/reads/info.js";
import { MessageReads } from "./data/reads/messages.js";
import { NameReads } from "./data/reads/names.js";
import { OnChainReads } from "./data/reads/onchain.js";
import { SignerReads } from "./data/reads/signers.js";
import { StorageReads } from "./data/reads/storage.js";

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
  // Each domain's reads, as the routes and the gRPC API call them (data/reads/).
  readonly messages: MessageReads;
  readonly onChain: OnChainReads;
  readonly signers: SignerReads;
  readonly addresses: AddressReads;
  readonly names: NameReads;
  readonly events: EventReads;
  readonly storage: StorageReads;

  constructor(
    private readonly core: HubCore,
    private readonly engine: MergeEngine,
    private readonly followers: Followers,
    private readonly identity: HubIdentity,
  ) {
    this.messages = new MessageReads({
      database: core.database,
      profile: core.profile.name,
      render: (bytes) => writeMessageJson(decodeMessage(bytes).message, core.profile),
    });
    const db = core.database.db;
    this.onChain = new OnChainReads(db);
    this.signers = new SignerReads(db, this.onChain);
    this.addresses = new AddressReads(db);
    this.names = new NameReads(db);
    this.events = new EventReads(db);
    this.storage = new StorageReads(db, () => core.now());
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

  // Hub events.

  /** Calls `listener` after events commit in this process; returns the function that stops it. */
  onEvents(listener: () => void): () => void {
    return this.core.bus.subscribe(listener);
  }

  // Activity for the client API's power badges.

  async reactorsByAuthor(sinceUnixSeconds: number): Promise<Map<number, number>> {
    const since = toProtocolTime(Math.max(sinceUnixSeconds * 1000, PROTOCOL_EPOCH_MS));
    return reactorsByAuthor(this.db, since);
  }

  // The profile a sign-in reports (the client API's relay).

  async profileOf(fid: number): Promise<HubProfile> {
    const page = { pageSize: PROFILE_PAGE_SIZE, reverse: false, after: undefined };
    const pages = await Promise.all([
      this.messages.userDataByFid(fid, page),
      this.messages.verificationsByFid(fid, page),
    ]);
    return profileFromMessages(pages.flatMap(({ messages }) => JSON.parse(`[${pooledText(messages)}]`)));
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

/** A page's joined JSON as a string, its pooled memory released. */
function pooledText(text: string | PooledText): string {
  if (typeof text === "string") return text;
  try {
    return text.framed("", "").toString("utf8");
  } finally {
    text.release();
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
