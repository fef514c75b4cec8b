/** JSON schemas shared by the public and operator routes (request validation and fast, exact output). */
import { MAX_PAGE_SIZE } from "../paging.js";

/**
 * A closed object: only the listed properties. The type parameters keep the schema's literal types, from
 * which a route's request types are made (src/http/routeTypes.d.ts).
 */
export const object = <
  const P extends Record<string, object>,
  const R extends readonly (keyof P & string)[] = readonly [],
>(
  properties: P,
  // Omitted, the list is the empty one, R's default (a default value cannot be typed by a type parameter's default).
  required: R = [] as never,
) => ({ type: "object", properties, required, additionalProperties: false }) as const;

export const fid = { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const count = { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
export const unixSeconds = count;
export const channelId = { type: "string", minLength: 1, maxLength: 64 } as const;

export const paging = {
  limit: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE },
  cursor: { type: "string", minLength: 1, maxLength: 256 },
} as const;

const fids = { type: "array", items: { type: "integer" } } as const;

/** Property order is the reference's key order (docs/reference/client-api.md §3). */
const channelProperties = {
  id: { type: "string" },
  url: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  descriptionMentions: fids,
  descriptionMentionsPositions: fids,
  imageUrl: { type: "string" },
  headerImageUrl: { type: "string" },
  leadFid: { type: "integer" },
  moderatorFid: { type: "integer" },
  moderatorFids: fids,
  createdAt: { type: "integer" },
  followerCount: { type: "integer" },
  memberCount: { type: "integer" },
  pinnedCastHash: { type: "string" },
  publicCasting: { type: "boolean" },
  externalLink: {
    type: "object",
    properties: { title: { type: "string" }, url: { type: "string" } },
    required: ["title", "url"],
  },
} as const;

// No `required` list: the serialiser writes required properties first, and the order must stay the
// reference's; renderChannel always sets id, url, name, imageUrl, createdAt and followerCount.
export const channel = { type: "object", properties: channelProperties } as const;

export const followedChannel = {
  type: "object",
  properties: { ...channelProperties, followedAt: { type: "integer" } },
} as const;

const actionProperties = {
  name: { type: "string" },
  icon: { type: "string" },
  description: { type: "string" },
  aboutUrl: { type: "string" },
  actionUrl: { type: "string" },
  action: {
    type: "object",
    properties: { actionType: { type: "string" }, postUrl: { type: "string" } },
    required: ["actionType", "postUrl"],
  },
  imageUrl: { type: "string" },
} as const;

export const action = {
  type: "object",
  properties: actionProperties,
  required: ["name", "icon", "description", "aboutUrl", "actionUrl", "action"],
} as const;

export const actionRecord = {
  type: "object",
  properties: {
    id: { type: "integer" },
    type: { type: "string" },
    ...actionProperties,
    installCount: { type: "integer" },
    featuredRank: { type: "integer" },
  },
  required: ["id", "type", ...action.required, "installCount"],
} as const;

export const blockedUser = {
  type: "object",
  properties: {
    blockerFid: { type: "integer" },
    blockedFid: { type: "integer" },
    createdAt: { type: "integer" },
  },
  required: ["blockerFid", "blockedFid", "createdAt"],
} as const;

export const signedKeyRequest = {
  type: "object",
  properties: {
    token: { type: "string" },
    deeplinkUrl: { type: "string" },
    key: { type: "string" },
    state: { type: "string" },
    requestFid: { type: "integer" },
    isSponsored: { type: "boolean" },
    userFid: { type: "integer" },
  },
  required: ["token", "deeplinkUrl", "key", "state", "requestFid", "isSponsored"],
} as const;

/** `{ result }`, plus `next.cursor` for a paginated list. */
export function envelope(result: object, paginated = false, status: 200 | 201 = 200) {
  const properties: Record<string, unknown> = { result };
  if (paginated)
    properties.next = { type: "object", properties: { cursor: { type: "string" } }, required: ["cursor"] };
  return { [status]: { type: "object", properties, required: ["result"] } };
}

export function result(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return { type: "object", properties, required };
}

/** Operator input: non-empty text up to `maxLength`, and URLs. */
export const text = (maxLength: number) => ({ type: "string", minLength: 1, maxLength }) as const;
export const url = text(2048);
