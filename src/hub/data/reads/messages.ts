/**
 * The hub's answers about messages: one message by its set key, or a page of a list, as JSON. The
 * JSON is the one stored at merge time unless it was stored under another naming profile.
 */
import type { ReactionType, UserDataType } from "../../../protocol/generated/message.js";
import { MessageType, type CastId } from "../../../protocol/generated/message.js";
import { notFound } from "../../errors.js";
import { castIdKey, fidKey, StoreType, u8, urlKey } from "../keys.js";
import type { PooledText } from "../../../storage/index.js";
import * as stored from "../messageReads.js";
import { pageToken, type KeyPageRequest } from "../paging.js";
import { linkSetKey } from "../../merge/stores/links.js";
import { reactionSetKey } from "../../merge/stores/reactions.js";

export interface MessagePage {
  /**
   * The page's messages as JSON, joined with commas (the inside of the `messages` array); as a
   * PooledText, to be released once sent.
   */
  messages: string | PooledText;
  /** Standard base64 of the last key; "" on the last page. */
  nextPageToken: string;
}

type Lists = stored.ListContext;

function pageOf(page: stored.JsonPage): MessagePage {
  return { messages: page.joined, nextPageToken: pageToken(page.next) };
}

async function one(
  lists: Lists,
  fid: number,
  store: StoreType,
  setKey: Uint8Array,
  type: MessageType,
  what: string,
): Promise<string> {
  const row = await stored.messageBySetKey(lists.database.db, fid, store, setKey, type);
  if (row === undefined) throw notFound(what);
  return row.json_profile === lists.profile ? row.json : lists.render(row.message);
}

async function byFid(
  lists: Lists,
  fid: number,
  store: StoreType,
  filter: stored.MessageFilter,
  page: KeyPageRequest,
): Promise<MessagePage> {
  return pageOf(await stored.messagesByFid(lists, fid, store, filter, page));
}

async function byTarget(
  lists: Lists,
  store: StoreType,
  target: Uint8Array,
  kind: string | undefined,
  page: KeyPageRequest,
): Promise<MessagePage> {
  return pageOf(await stored.messagesByTarget(lists, store, target, kind, page));
}

function targetKey(target: CastId | string): Uint8Array {
  return typeof target === "string" ? urlKey(target) : castIdKey(target);
}

/** The hub's reads of its message stores (casts, reactions, links, user data, verifications). */
export class MessageReads {
  constructor(private readonly lists: Lists) {}

  castById(fid: number, hash: Uint8Array): Promise<string> {
    return one(this.lists, fid, StoreType.CASTS, hash, MessageType.CAST_ADD, "cast");
  }

  /** The stored cast whose hash lies in [low, high] (a hash, or the range a prefix spans; the lowest). */
  async castByHash(low: Uint8Array, high: Uint8Array): Promise<string> {
    const row = await stored.castByHashRange(this.lists.database.db, low, high);
    if (row === undefined) throw notFound("cast");
    return row.json_profile === this.lists.profile ? row.json : this.lists.render(row.message);
  }

  /** Adds and removes, as the reference lists them. */
  castsByFid(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return byFid(this.lists, fid, StoreType.CASTS, {}, page);
  }

  castsByParent(parent: CastId | string, page: KeyPageRequest): Promise<MessagePage> {
    return byTarget(this.lists, StoreType.CASTS, targetKey(parent), undefined, page);
  }

  async castsByMention(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return pageOf(await stored.castsByMention(this.lists, fid, page));
  }

  reactionById(fid: number, type: ReactionType, target: CastId | string): Promise<string> {
    const body = typeof target === "string" ? { type, targetUrl: target } : { type, targetCastId: target };
    return one(
      this.lists,
      fid,
      StoreType.REACTIONS,
      reactionSetKey(body),
      MessageType.REACTION_ADD,
      "reaction",
    );
  }

  reactionsByFid(fid: number, type: ReactionType | undefined, page: KeyPageRequest): Promise<MessagePage> {
    const filter = { types: [MessageType.REACTION_ADD], kind: type === undefined ? undefined : String(type) };
    return byFid(this.lists, fid, StoreType.REACTIONS, filter, page);
  }

  reactionsByTarget(
    target: CastId | string,
    type: ReactionType | undefined,
    page: KeyPageRequest,
  ): Promise<MessagePage> {
    const kind = type === undefined ? undefined : String(type);
    return byTarget(this.lists, StoreType.REACTIONS, targetKey(target), kind, page);
  }

  linkById(fid: number, type: string, targetFid: number): Promise<string> {
    return one(this.lists, fid, StoreType.LINKS, linkSetKey(type, targetFid), MessageType.LINK_ADD, "link");
  }

  linksByFid(fid: number, type: string | undefined, page: KeyPageRequest): Promise<MessagePage> {
    return byFid(this.lists, fid, StoreType.LINKS, { types: [MessageType.LINK_ADD], kind: type }, page);
  }

  linksByTargetFid(targetFid: number, type: string | undefined, page: KeyPageRequest): Promise<MessagePage> {
    return byTarget(this.lists, StoreType.LINKS, fidKey(targetFid), type, page);
  }

  userData(fid: number, type: UserDataType): Promise<string> {
    return one(this.lists, fid, StoreType.USER_DATA, u8(type), MessageType.USER_DATA_ADD, "user data");
  }

  userDataByFid(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    return byFid(this.lists, fid, StoreType.USER_DATA, {}, page);
  }

  verification(fid: number, address: Uint8Array): Promise<string> {
    const type = MessageType.VERIFICATION_ADD_ETH_ADDRESS;
    return one(this.lists, fid, StoreType.VERIFICATIONS, address, type, "verification");
  }

  verificationsByFid(fid: number, page: KeyPageRequest): Promise<MessagePage> {
    const filter = { types: [MessageType.VERIFICATION_ADD_ETH_ADDRESS] };
    return byFid(this.lists, fid, StoreType.VERIFICATIONS, filter, page);
  }
}
