/**
 * The routes whose sweep needs more than their schemas say, listed by hand from the routes files of
 * each part: each route's parameters and body fields with a baseline value taken from the fixtures,
 * and what the sweep must not send it. A route not listed here is swept from its schemas
 * (derived.ts); list a new route here when its baseline needs state the fixtures make, or its
 * answers are not JSON.
 */
import type { AccountDetails } from "../../../src/stack/account.js";
import type { Case } from "./judge.js";
import { PARTS, type Expect, type Part, type Shape } from "./parts.js";
import { MAX_SAFE, jsonBytes, type Field, type Param } from "./values.js";

/** Routes left to derived.ts on purpose: their schemas say all the sweep needs to know. */
export const DERIVED_ON_PURPOSE: readonly string[] = [
  "registry GET /signer",
  "registry GET /current-time",
  "registry GET /_health",
  "registry GET /_ready",
  "hub GET /v1/info",
  "hub GET /v1/currentPeers",
  "hub GET /_health",
  "hub GET /_ready",
  "api GET /_health",
  "api GET /_ready",
  "chain GET /_health",
  "chain GET /_ready",
];

export interface JsonBody {
  /** The baseline body: well formed, refused by the part's rules (so that nothing it accepts writes), unless `baselineOk`. */
  valid: Record<string, unknown>;
  fields: Record<string, Field>;
  /** The baseline would be accepted (and write): never sent as it is; mutations that keep it valid may be accepted. */
  baselineOk?: boolean;
}

export interface Route {
  part: Part;
  method: string;
  /** Fastify pattern; `:name` segments come from `params`. */
  path: string;
  params?: Record<string, Param>;
  query?: Record<string, Param>;
  /** Unknown query parameters are refused (every part but the hub, which ignores them as the reference does). */
  strictQuery: boolean;
  enums?: Record<string, readonly string[]>;
  json?: JsonBody;
  /** Routes that take no body: a body sent anyway. */
  noBody?: boolean;
  proto?: "message" | "validate" | "bulk";
  bodyLimit?: number;
  /** Whether a request to this route may change state when accepted. */
  write?: boolean;
  /**
   * A page (the client API's explorer) or a file of one (the docs page): its answers are HTML,
   * scripts, YAML or a redirect, not JSON, and it may refuse with a page saying why.
   */
  page?: boolean;
  /** An accepted request opens a stream that never ends: only requests the route must refuse are sent. */
  stream?: boolean;
  /** Accepted answers are plain text (the Prometheus format), not JSON; refusals are still the part's JSON. */
  text?: boolean;
  /** What the baseline request is expected to get. */
  baseline?: Expect | "skip";
  shapes?: readonly Shape[];
  /** JSON-RPC: its refusals are errors inside 2xx answers; it gets rpcCases.ts instead of the generic cases. */
  rpc?: boolean;
  extra?: (fx: Fixtures) => Promise<Case[]> | Case[];
}

export interface Fixtures {
  urls: Record<Part, string>;
  alice: AccountDetails;
  bob: AccountDetails;
  namers: { account: AccountDetails; name: string; secondClaim: Record<string, unknown> }[];
  aliceName: string;
  castHash: string;
  castBytes: Uint8Array;
  keyRequestToken: string;
  /** A pending sign-in channel's token. */
  signInChannelToken: string;
  keyRequestBody: Record<string, unknown>;
  approvalBody: Record<string, unknown>;
  demoAction: Record<string, unknown>;
  ccipData: string;
}

const paging = (): Record<string, Param> => ({
  pageSize: { kind: "uint", valid: "2" },
  page_size: { kind: "uint" },
  pageToken: { kind: "pageToken" },
  page_token: { kind: "pageToken" },
  reverse: { kind: "text", valid: "true" },
});
const apiPaging = (): Record<string, Param> => ({
  limit: { kind: "limit", valid: "2" },
  cursor: { kind: "cursor" },
});

const REACTION_TYPES = ["REACTION_TYPE_LIKE", "REACTION_TYPE_RECAST", "Like", "Recast", "1", "2"];
const EVENT_TYPES = ["EVENT_TYPE_SIGNER", "EVENT_TYPE_ID_REGISTER", "1", "2", "3", "4"];
const USER_DATA_TYPES = ["USER_DATA_TYPE_PFP", "USER_DATA_TYPE_USERNAME", "1", "6"];

export function routes(fx: Fixtures): Route[] {
  const alice = String(fx.alice.fid);
  const hub = (path: string, query: Record<string, Param>, more: Partial<Route> = {}): Route => ({
    part: "hub",
    method: "GET",
    path,
    query,
    strictQuery: false,
    ...more,
  });
  const api = (method: string, path: string, more: Partial<Route> = {}): Route => ({
    part: "api",
    method,
    path,
    strictQuery: true,
    ...more,
  });
  const chain = (method: string, path: string, more: Partial<Route> = {}): Route => ({
    part: "chain",
    method,
    path,
    strictQuery: true,
    ...more,
  });
  const ccip: readonly Shape[] = ["ccip", "registry"];
  const namer = fx.namers[0]!;
  const operatorFid: Param = { kind: "fid", valid: "4242", required: true };
  return [
    // Registry (src/registry/routes.ts, ccipRoutes.ts)
    {
      part: "registry",
      method: "GET",
      path: "/transfers",
      strictQuery: true,
      query: {
        from_id: { kind: "uint", valid: "1" },
        fromId: { kind: "uint" },
        from_ts: { kind: "uint", valid: "1" },
        name: { kind: "text", valid: namer.name },
        fname: { kind: "text" },
        fid: { kind: "uint", valid: String(namer.account.fid) },
      },
    },
    {
      part: "registry",
      method: "GET",
      path: "/transfers/current",
      strictQuery: true,
      query: { fid: { kind: "uint", valid: alice }, name: { kind: "text" }, fname: { kind: "text" } },
    },
    {
      part: "registry",
      method: "POST",
      path: "/transfers",
      strictQuery: false,
      write: true,
      bodyLimit: 16 * 1024,
      json: {
        valid: namer.secondClaim,
        fields: {
          name: { kind: "text", required: true, max: 1024 },
          from: { kind: "uint", required: true },
          to: { kind: "uint", required: true },
          fid: { kind: "uint" },
          owner: { kind: "address", required: true },
          timestamp: { kind: "uint", required: true },
          signature: { kind: "hex", required: true },
        },
      },
      extra: (f) => registryTransferCases(f),
    },
    { part: "registry", method: "GET", path: "/metrics", strictQuery: false, text: true },
    {
      part: "registry",
      method: "GET",
      path: "/ccip/*",
      strictQuery: false,
      shapes: ccip,
      baseline: "skip",
      extra: (f) => ccipGetCases(f),
    },
    {
      part: "registry",
      method: "POST",
      path: "/ccip",
      strictQuery: false,
      shapes: ccip,
      bodyLimit: 16 * 1024,
      json: {
        valid: { sender: `0x${"00".repeat(20)}`, data: fx.ccipData },
        baselineOk: true,
        fields: { sender: { kind: "address", required: true }, data: { kind: "hex", required: true } },
      },
    },

    // Hub (src/hub/api/routes/*.ts)
    hub("/v1/activity/reactorsByAuthor", {
      since: { kind: "uint", valid: String(Math.floor(Date.now() / 1000) - 86_400), required: true },
    }),
    hub("/v1/castById", {
      fid: { kind: "uint", valid: alice, required: true },
      hash: { kind: "hex20", valid: fx.castHash, required: true },
    }),
    hub("/v1/castByHash", { hash: { kind: "hashPrefix", valid: fx.castHash, required: true } }),
    hub("/v1/castsByFid", { fid: { kind: "uint", valid: alice, required: true }, ...paging() }),
    hub(
      "/v1/castsByParent",
      {
        fid: { kind: "uint", valid: alice },
        hash: { kind: "hex20", valid: fx.castHash },
        url: { kind: "text" },
        ...paging(),
      },
      {
        extra: () => [
          {
            label: "neither parent cast nor url",
            req: { method: "GET", path: "/v1/castsByParent" },
            expect: "refuse",
          },
        ],
      },
    ),
    hub("/v1/castsByMention", { fid: { kind: "uint", valid: alice, required: true }, ...paging() }),
    hub(
      "/v1/reactionById",
      {
        fid: { kind: "uint", valid: alice, required: true },
        reaction_type: { kind: "enum", valid: "1", required: true },
        target_fid: { kind: "uint", valid: alice },
        target_hash: { kind: "hex20", valid: fx.castHash },
        target_url: { kind: "text" },
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub(
      "/v1/reactionsByFid",
      {
        fid: { kind: "uint", valid: alice, required: true },
        reaction_type: { kind: "enum", valid: "REACTION_TYPE_LIKE" },
        ...paging(),
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub(
      "/v1/reactionsByCast",
      {
        target_fid: { kind: "uint", valid: alice, required: true },
        target_hash: { kind: "hex20", valid: fx.castHash, required: true },
        reaction_type: { kind: "enum", valid: "2" },
        ...paging(),
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub(
      "/v1/reactionsByTarget",
      {
        url: { kind: "text", valid: "https://example.com/x", required: true },
        reaction_type: { kind: "enum" },
        ...paging(),
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub("/v1/linkById", {
      fid: { kind: "uint", valid: alice, required: true },
      target_fid: { kind: "uint", valid: String(fx.bob.fid), required: true },
      link_type: { kind: "text", valid: "follow", required: true },
    }),
    hub("/v1/linksByFid", {
      fid: { kind: "uint", valid: alice, required: true },
      link_type: { kind: "text", valid: "follow" },
      ...paging(),
    }),
    hub("/v1/linksByTargetFid", {
      target_fid: { kind: "uint", valid: alice, required: true },
      link_type: { kind: "text" },
      ...paging(),
    }),
    hub(
      "/v1/userDataByFid",
      { fid: { kind: "uint", valid: alice, required: true }, user_data_type: { kind: "enum" }, ...paging() },
      { enums: { user_data_type: USER_DATA_TYPES } },
    ),
    hub("/v1/verificationsByFid", {
      fid: { kind: "uint", valid: alice, required: true },
      address: { kind: "address" },
      ...paging(),
    }),
    hub("/v1/onChainSignersByFid", {
      fid: { kind: "uint", valid: alice, required: true },
      // Absent from the baseline: with a signer the route answers that key's event and ignores paging.
      signer: { kind: "hex32" },
      ...paging(),
    }),
    hub(
      "/v1/onChainEventsByFid",
      {
        fid: { kind: "uint", valid: alice, required: true },
        event_type: { kind: "enum", valid: "EVENT_TYPE_SIGNER", required: true },
      },
      { enums: { event_type: EVENT_TYPES } },
    ),
    hub("/v1/onChainIdRegistryEventByAddress", {
      address: { kind: "hex20", valid: fx.alice.custodyAddress, required: true },
    }),
    hub(
      "/v1/fidAddressType",
      {
        fid: { kind: "uint", valid: alice, required: true },
        address: { kind: "address", valid: fx.alice.custodyAddress, required: true },
      },
      {
        extra: () => [
          {
            label: "an auth address's 32-byte key",
            req: {
              method: "GET",
              path: `/v1/fidAddressType?fid=${alice}&address=0x${"00".repeat(12)}${fx.alice.custodyAddress.slice(2)}`,
            },
            expect: "either",
          },
          {
            // The successor reads hex only; a base58 Solana address is not hex.
            label: "a base58 address",
            req: {
              method: "GET",
              path: `/v1/fidAddressType?fid=${alice}&address=7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV`,
            },
            expect: "refuse",
          },
        ],
      },
    ),
    hub("/v1/fids", paging()),
    hub("/v1/storageLimitsByFid", { fid: { kind: "uint", valid: alice, required: true } }),
    hub("/v1/userNameProofByName", { name: { kind: "text", valid: fx.aliceName, required: true } }),
    hub("/v1/userNameProofsByFid", { fid: { kind: "uint", valid: alice, required: true } }),
    hub("/v1/events", { from_event_id: { kind: "uint", valid: "1" } }),
    hub(
      "/v1/events/stream",
      { from_event_id: { kind: "uint", valid: "1" } },
      {
        stream: true,
        baseline: "skip",
        extra: () =>
          ["abc", "-1", "0x10", "1".repeat(17)].map((id) => ({
            label: `Last-Event-ID ${id}`,
            req: { method: "GET", path: "/v1/events/stream", headers: { "last-event-id": id } },
            expect: "refuse" as const,
          })),
      },
    ),
    hub(
      "/v1/eventById",
      { event_id: { kind: "uint", valid: "1" }, id: { kind: "uint" } },
      {
        extra: () => [
          { label: "no event id", req: { method: "GET", path: "/v1/eventById" }, expect: "refuse" },
        ],
      },
    ),
    hub("/metrics", {}, { text: true }),
    ...["/v1/admin/housekeeping", "/v1/admin/sync"].map((path) =>
      hub(path, {}, { method: "POST", write: true, noBody: true }),
    ),
    {
      part: "hub",
      method: "POST",
      path: "/v1/submitMessage",
      strictQuery: false,
      proto: "message",
      write: true,
      bodyLimit: 80 * 1024,
    },
    {
      part: "hub",
      method: "POST",
      path: "/v1/validateMessage",
      strictQuery: false,
      proto: "validate",
      bodyLimit: 80 * 1024,
    },
    {
      part: "hub",
      method: "POST",
      path: "/v1/submitBulkMessages",
      strictQuery: false,
      proto: "bulk",
      write: true,
      bodyLimit: 8 * 1024 * 1024,
    },

    // Client API (src/clientapi/routes/)
    api("GET", "/v2/all-channels"),
    api("GET", "/v1/channel", { query: { channelId: { kind: "text", valid: "welcome", required: true } } }),
    api("GET", "/v1/channel-followers", {
      query: { channelId: { kind: "text", valid: "welcome", required: true }, ...apiPaging() },
    }),
    api("GET", "/v1/user-following-channels", {
      query: { fid: { kind: "fid", valid: "3", required: true }, ...apiPaging() },
    }),
    api("GET", "/v1/user-channel", {
      query: {
        fid: { kind: "fid", valid: "3", required: true },
        channelId: { kind: "text", valid: "welcome", required: true },
      },
    }),
    api("GET", "/v2/power-badge-users"),
    api("GET", "/v2/discover-actions", {
      query: { list: { kind: "enum", valid: "top", required: true }, ...apiPaging() },
      enums: { list: ["top"] },
    }),
    api("GET", "/v2/discover-composer-actions", {
      query: { list: { kind: "enum", valid: "featured", required: true }, ...apiPaging() },
      enums: { list: ["top", "featured"] },
    }),
    api("GET", "/v1/blocked-users", { query: { blockerFid: { kind: "fid", valid: "3" }, ...apiPaging() } }),
    api("GET", "/fc/blocked-users", { query: { blockerFid: { kind: "fid", valid: "3" }, ...apiPaging() } }),
    ...["/v2/signed-key-request", "/v2/signed-key-requests"].map((path) =>
      api("POST", path, {
        write: true,
        json: {
          valid: fx.keyRequestBody,
          fields: {
            key: { kind: "hex", required: true, max: 200 },
            requestFid: { kind: "fid", required: true },
            deadline: { kind: "int", required: true },
            signature: { kind: "hex", required: true, max: 300 },
            redirectUrl: { kind: "url", max: 2048 },
            sponsorship: { kind: "object" },
            "sponsorship.sponsorFid": { kind: "fid", required: true },
            "sponsorship.signature": { kind: "hex", required: true, max: 300 },
          },
        },
      }),
    ),
    api("POST", "/v1/channel", {
      write: true,
      json: {
        valid: { siweUri: "https://example.com/login", domain: "example.com" },
        baselineOk: true,
        fields: {
          siweUri: { kind: "url", required: true, max: 2048 },
          domain: { kind: "text", required: true, max: 253 },
          nonce: { kind: "text", max: 256 },
          notBefore: { kind: "text", max: 64 },
          expirationTime: { kind: "text", max: 64 },
          requestId: { kind: "text", max: 256 },
          redirectUrl: { kind: "text", max: 2048 },
          acceptAuthAddress: { kind: "bool" },
        },
      },
    }),
    api("GET", "/v2/signed-key-request", {
      query: { token: { kind: "text", valid: fx.keyRequestToken, required: true } },
    }),
    api("GET", "/v2/signed-key-request/approval", {
      query: {
        token: { kind: "text", valid: fx.keyRequestToken, required: true },
        fid: { kind: "fid", valid: alice, required: true },
      },
    }),
    api("POST", "/v2/signed-key-request/approval", {
      write: true,
      json: {
        valid: fx.approvalBody,
        fields: {
          token: { kind: "text", required: true, max: 200 },
          fid: { kind: "fid", required: true },
          nonce: { kind: "uint", required: true },
          deadline: { kind: "int", required: true },
          signature: { kind: "hex", required: true, max: 300 },
        },
      },
    }),
    api("POST", "/v1/admin/channels", {
      write: true,
      query: {},
      json: {
        // "welcome" exists: refused with 409 once everything else passes.
        valid: {
          id: "welcome",
          url: "https://example.com/hostile",
          name: "Hostile",
          imageUrl: "https://example.com/hostile.png",
          description: "a channel that must never be created",
          leadFid: 3,
        },
        fields: {
          id: { kind: "text", required: true, max: 64 },
          url: { kind: "url", required: true, max: 2048 },
          name: { kind: "text", required: true, max: 64 },
          imageUrl: { kind: "url", required: true, max: 2048 },
          description: { kind: "text", nullable: true, max: 1024 },
          leadFid: { kind: "fid", nullable: true },
          moderatorFids: { kind: "array", nullable: true },
          publicCasting: { kind: "bool", nullable: true },
          externalLink: { kind: "object", nullable: true },
          createdAt: { kind: "uint" },
        },
      },
    }),
    api("PATCH", "/v1/admin/channels/:channelId", {
      write: true,
      query: {},
      params: { channelId: { kind: "text", valid: "no-such-channel", required: true } },
      json: {
        valid: {
          name: "Renamed",
          descriptionMentions: [3],
          descriptionMentionsPositions: [0],
          description: "x",
        },
        fields: {
          name: { kind: "text", max: 64 },
          descriptionMentions: { kind: "array", nullable: true },
          descriptionMentionsPositions: { kind: "array", nullable: true },
          description: { kind: "text", nullable: true, max: 1024 },
          memberCount: { kind: "uint", nullable: true },
          pinnedCastHash: { kind: "hex", nullable: true, max: 42 },
          headerImageUrl: { kind: "url", nullable: true, max: 2048 },
        },
      },
    }),
    api("PUT", "/v1/admin/channels/:channelId/followers/:fid", {
      write: true,
      query: {},
      params: {
        channelId: { kind: "text", valid: "no-such-channel", required: true },
        fid: { kind: "fid", valid: "3", required: true },
      },
      json: { valid: { followedAt: 1 }, fields: { followedAt: { kind: "uint" } } },
    }),
    api("DELETE", "/v1/admin/channels/:channelId/followers/:fid", {
      write: true,
      query: {},
      noBody: true,
      params: {
        channelId: { kind: "text", valid: "no-such-channel", required: true },
        fid: { kind: "fid", valid: "3", required: true },
      },
    }),
    api("PUT", "/v1/admin/blocks/:blockerFid/:blockedFid", {
      write: true,
      query: {},
      // A fid cannot block itself: refused once the input is read.
      params: {
        blockerFid: { kind: "fid", valid: "5", required: true },
        blockedFid: { kind: "fid", valid: "5", required: true },
      },
      json: { valid: { createdAt: 1 }, fields: { createdAt: { kind: "uint" } } },
    }),
    api("DELETE", "/v1/admin/blocks/:blockerFid/:blockedFid", {
      write: true,
      query: {},
      noBody: true,
      baseline: "either",
      params: {
        blockerFid: { kind: "fid", valid: "5", required: true },
        blockedFid: { kind: "fid", valid: "6", required: true },
      },
    }),
    api("GET", "/v1/admin/actions", { query: {} }),
    api("POST", "/v1/admin/actions", {
      write: true,
      query: {},
      json: {
        // An actionUrl already registered: refused with 409 once everything else passes.
        valid: fx.demoAction,
        fields: {
          type: { kind: "enum", required: true },
          name: { kind: "text", required: true, max: 30 },
          icon: { kind: "text", required: true, max: 40 },
          description: { kind: "text", required: true, max: 80 },
          aboutUrl: { kind: "url", required: true, max: 2048 },
          actionUrl: { kind: "url", required: true, max: 2048 },
          postUrl: { kind: "url", max: 2048 },
        },
      },
    }),
    ...(["PUT", "DELETE"] as const).map((method) =>
      api(method, "/v1/admin/actions/:actionId/installs/:fid", {
        write: true,
        query: {},
        noBody: true,
        params: {
          actionId: { kind: "fid", valid: "999999", required: true },
          fid: { kind: "fid", valid: "3", required: true },
        },
      }),
    ),
    api("PUT", "/v1/admin/actions/:actionId/featured", {
      write: true,
      query: {},
      params: { actionId: { kind: "fid", valid: "999999", required: true } },
      json: { valid: { rank: 1 }, fields: { rank: { kind: "fid" } } },
    }),
    api("DELETE", "/v1/admin/actions/:actionId/featured", {
      write: true,
      query: {},
      noBody: true,
      params: { actionId: { kind: "fid", valid: "999999", required: true } },
    }),
    api("GET", "/v1/admin/power-badges", { query: {} }),
    api("PUT", "/v1/admin/power-badges/:fid", {
      write: true,
      query: {},
      baseline: "skip",
      params: { fid: operatorFid },
      json: {
        valid: { badge: "grant" },
        baselineOk: true,
        fields: { badge: { kind: "enum", required: true } },
      },
    }),
    api("DELETE", "/v1/admin/power-badges/:fid", {
      write: true,
      query: {},
      noBody: true,
      params: { fid: { kind: "fid", valid: "4243", required: true } },
    }),
    api("POST", "/v1/admin/power-badges/recalculate", {
      write: true,
      query: {},
      noBody: true,
      baseline: "skip",
    }),
    api("GET", "/v1/admin/sponsors/:fid", {
      query: {},
      params: { fid: { kind: "fid", valid: "1", required: true } },
    }),
    api("PUT", "/v1/admin/sponsors/:fid", {
      write: true,
      query: {},
      baseline: "skip",
      params: { fid: operatorFid },
      json: {
        valid: { credits: 5 },
        baselineOk: true,
        fields: { credits: { kind: "uint", required: true } },
      },
    }),
    // Quick Auth: a nonce is a write; a sign-in's baseline is a well-formed message whose nonce this
    // server never gave, so it is refused before anything is spent or signed.
    api("POST", "/nonce", { write: true, query: {}, noBody: true }),
    api("POST", "/verify-siwf", {
      query: {},
      json: {
        valid: {
          message: [
            "example.com wants you to sign in with your Ethereum account:",
            "0x00000000000000000000000000000000000000AA",
            "",
            "Farcaster Auth",
            "",
            "URI: https://example.com/login",
            "Version: 1",
            "Chain ID: 10",
            `Nonce: cn${"0".repeat(32)}`,
            "Issued At: 2026-01-01T00:00:00.000Z",
            "Resources:",
            "- farcaster://fid/1",
          ].join("\n"),
          signature: `0x${"11".repeat(65)}`,
          domain: "example.com",
        },
        fields: {
          message: { kind: "text", required: true, max: 8192 },
          signature: { kind: "text", required: true, max: 300 },
          domain: { kind: "text", required: true, max: 300 },
          acceptAuthAddress: { kind: "bool" },
        },
      },
    }),
    api("POST", "/v1/quick-auth/keys/rotate", { write: true, query: {}, noBody: true, baseline: "skip" }),
    api("GET", "/metrics", { strictQuery: false, text: true }),

    // Devchain (src/devchain/routes/)
    chain("POST", "/v1/fids", {
      write: true,
      query: { wait: { kind: "bool", valid: "true" } },
      json: {
        // Alice's custody address already owns a fid: refused with 409.
        valid: { custody: fx.alice.custodyAddress, recovery: fx.alice.custodyAddress },
        fields: { custody: { kind: "address", required: true }, recovery: { kind: "address" } },
      },
    }),
    // The devchain's reads that take no query string have no schema for one: unknown parameters are ignored.
    chain("GET", "/v1/fids/:fid", {
      strictQuery: false,
      params: { fid: { kind: "fid", valid: alice, required: true } },
    }),
    chain("POST", "/v1/fids/:fid/signers", {
      write: true,
      params: { fid: { kind: "fid", valid: alice, required: true } },
      query: { wait: { kind: "bool", valid: "true" } },
      json: {
        // Alice's signer is already added: refused with 409.
        valid: { key: fx.alice.signerPublicKey, keyType: 1, metadataType: 1, metadata: "0x00" },
        fields: {
          key: { kind: "hex", required: true, max: 66 },
          keyType: { kind: "uint" },
          metadataType: { kind: "uint" },
          metadata: { kind: "hex", max: 16_384 },
        },
      },
    }),
    chain("DELETE", "/v1/fids/:fid/signers/:key", {
      write: true,
      noBody: true,
      query: { wait: { kind: "bool", valid: "true" } },
      params: {
        fid: { kind: "fid", valid: alice, required: true },
        key: { kind: "hex32", valid: `0x${"07".repeat(32)}`, required: true },
      },
    }),
    chain("POST", "/v1/fids/:fid/storage", {
      write: true,
      query: { wait: { kind: "bool", valid: "true" } },
      params: { fid: { kind: "fid", valid: "999999", required: true } },
      json: { valid: { units: 1 }, fields: { units: { kind: "fid", required: true } } },
    }),
    chain("GET", "/v1/addresses/:address", {
      strictQuery: false,
      params: { address: { kind: "address", valid: fx.alice.custodyAddress, required: true } },
    }),
    chain("GET", "/v1/events", {
      query: { from_block: { kind: "uint", valid: "0" }, limit: { kind: "fid", valid: "10" } },
    }),
    chain("GET", "/v1/transactions/:hash", {
      strictQuery: false,
      params: { hash: { kind: "hex32", valid: `0x${"00".repeat(32)}`, required: true } },
    }),
    chain("GET", "/v1/blocks/latest", { strictQuery: false }),
    // JSON-RPC (src/devchain/rpc/server.ts).
    chain("POST", "/", { rpc: true, write: true, bodyLimit: 64 * 1024 }),
    chain("GET", "/metrics", { strictQuery: false, text: true }),

    // The explorer and approval pages on the client API (src/explorer).
    api("GET", "/", { page: true }),
    api("GET", "/fid/:fid", {
      page: true,
      params: { fid: { kind: "fid", valid: alice, required: true } },
      query: { casts: { kind: "pageToken" } },
    }),
    api("GET", "/cast/:fid/:hash", {
      page: true,
      params: {
        fid: { kind: "fid", valid: alice, required: true },
        hash: { kind: "hex20", valid: fx.castHash, required: true },
      },
    }),
    api("GET", "/name/:name", {
      page: true,
      params: { name: { kind: "text", valid: fx.aliceName, required: true } },
    }),
    api("GET", "/channel/:id", {
      page: true,
      params: { id: { kind: "text", valid: "welcome", required: true } },
    }),
    api("GET", "/channels", { page: true }),
    api("GET", "/avatars/:fid.svg", {
      page: true,
      params: { fid: { kind: "fid", valid: alice, required: true } },
    }),
    api("GET", "/events", {
      page: true,
      query: {
        from: { kind: "uint", valid: "0" },
        before: { kind: "fid", valid: "1" },
        type: { kind: "enum" },
        fid: { kind: "fid", valid: alice },
      },
      enums: { type: ["HUB_EVENT_TYPE_MERGE_MESSAGE", "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT", ""] },
    }),
    api("GET", "/search", { page: true, query: { q: { kind: "text", valid: alice, required: true } } }),
    api("GET", "/approve", {
      page: true,
      query: { token: { kind: "text", valid: fx.keyRequestToken, required: true } },
    }),
    api("POST", "/approve", {
      page: true,
      write: true,
      json: {
        // No Origin header: refused (403) as a form posted from another site.
        valid: { token: fx.keyRequestToken, account: "alice" },
        fields: {
          token: { kind: "text", required: true, max: 200 },
          account: { kind: "text", required: true, max: 32 },
        },
      },
    }),
    api("GET", "/sign-in", {
      page: true,
      query: { channelToken: { kind: "text", valid: fx.signInChannelToken, required: true } },
    }),
    // The sign-in page script's JSON: counted as pages, so past the pages' limit it gets the 429 page.
    api("GET", "/sign-in/message", {
      page: true,
      query: {
        channelToken: { kind: "text", valid: fx.signInChannelToken, required: true },
        address: { kind: "address", valid: fx.alice.custodyAddress, required: true },
        fid: { kind: "fid", valid: String(fx.alice.fid), required: true },
      },
    }),
    api("POST", "/sign-in/wallet", {
      page: true,
      write: true,
      json: {
        // No Origin header: refused (403) as a post from another site's page.
        valid: {
          channelToken: fx.signInChannelToken,
          message: "castnet",
          signature: `0x${"11".repeat(65)}`,
          fid: fx.alice.fid,
        },
        fields: {
          channelToken: { kind: "text", required: true, max: 200 },
          message: { kind: "text", required: true, max: 4096 },
          signature: { kind: "hex", required: true },
          fid: { kind: "fid", required: true },
        },
      },
    }),
    api("POST", "/sign-in/account", {
      page: true,
      write: true,
      json: {
        // No Origin header: refused (403) as a form posted from another site.
        valid: { channelToken: fx.signInChannelToken, account: "alice" },
        fields: {
          channelToken: { kind: "text", required: true, max: 200 },
          account: { kind: "text", required: true, max: 32 },
        },
      },
    }),
    api("GET", "/assets/:file", {
      page: true,
      params: { file: { kind: "text", valid: "app.js", required: true } },
    }),

    // Every part's OpenAPI document and docs page (src/http/openapi.ts).
    ...PARTS.flatMap((part) => [
      { part, method: "GET", path: "/openapi.json", strictQuery: false },
      ...[
        "/docs",
        "/docs/static/index.html",
        "/docs/static/swagger-initializer.js",
        "/docs/static/*",
        "/docs/yaml",
      ].map((path) => ({ part, method: "GET", path, strictQuery: false, page: true })),
      { part, method: "GET", path: "/docs/json", strictQuery: false },
    ]),
  ];
}

// Cases only one route has: the registry's transfers and its CCIP gateway.

async function registryTransferCases(fx: Fixtures): Promise<Case[]> {
  const namer = fx.namers[1]!;
  const claim = namer.secondClaim;
  const post = (label: string, body: Record<string, unknown>) => ({
    label,
    req: { method: "POST", path: "/transfers", body: jsonBytes(body), contentType: "application/json" },
    expect: "refuse" as const,
  });
  return [
    post("from equals to", { ...claim, from: claim.to }),
    post("a name with upper case", { ...claim, name: "HOSTILE" }),
    post("a 17-character name", { ...claim, name: "a".repeat(17) }),
    post("an empty signature", { ...claim, signature: "0x" }),
    post("a signature of 0xff bytes", { ...claim, signature: `0x${"ff".repeat(65)}` }),
    post("a 1024-byte signature", { ...claim, signature: `0x${"11".repeat(1024)}` }),
    post("an owner that is not the custody address", { ...claim, owner: `0x${"12".repeat(20)}` }),
    post("a fid that is neither from nor to", { ...claim, fid: fx.bob.fid + 1000 }),
    post("unregistering a name the fid does not hold", { ...claim, from: claim.to, to: 0 }),
    post("registering to fid 2^53-1", { ...claim, to: MAX_SAFE, fid: MAX_SAFE }),
    post("a timestamp far in the future", { ...claim, timestamp: MAX_SAFE }),
    post("a timestamp of 0", { ...claim, timestamp: 0 }),
  ];
}

function ccipGetCases(fx: Fixtures): Case[] {
  const sender = `0x${"00".repeat(20)}`;
  const get = (label: string, rest: string, expect: Expect): Case => ({
    label,
    req: { method: "GET", path: `/ccip/${rest}` },
    expect,
  });
  return [
    get("a well-formed resolve call", `${sender}/${fx.ccipData}.json`, "either"),
    get("sender not hex", `0xzz/${fx.ccipData}.json`, "refuse"),
    get("sender of 19 bytes", `0x${"00".repeat(19)}/${fx.ccipData}.json`, "refuse"),
    get("calldata of odd length", `${sender}/0x123.json`, "refuse"),
    get("calldata not hex", `${sender}/0xzz.json`, "refuse"),
    get("no .json suffix", `${sender}/${fx.ccipData}`, "refuse"),
    get("an unknown selector", `${sender}/0xdeadbeef.json`, "refuse"),
    get("a resolve call cut short", `${sender}/${fx.ccipData.slice(0, 40)}.json`, "refuse"),
    get("a multicall of garbage", `${sender}/0xac9650d8${"ff".repeat(64)}.json`, "refuse"),
    get(
      "a resolve call with a huge offset",
      `${sender}/0x9061b923${"f".repeat(64)}${"0".repeat(64)}.json`,
      "refuse",
    ),
    get("%FF in the path", `${sender}/%FF.json`, "refuse"),
    get("%ZZ in the path", `%ZZ/${fx.ccipData}.json`, "refuse"),
    get("nothing after /ccip/", "", "refuse"),
    get("10 KiB of zero calldata", `${sender}/0x9061b923${"00".repeat(5000)}.json`, "either"),
  ];
}

/** Stand-in fixtures, only to list the routes (and name the tests) before the stack starts. */
export function placeholderFixtures(): Fixtures {
  const account: AccountDetails = {
    fid: 1,
    custodyAddress: "0x",
    custodyPrivateKey: "0x",
    recoveryAddress: "0x",
    signerPublicKey: "0x",
    signerPrivateKey: "0x",
    storageUnits: 1,
    balance: 0n,
    warning: "",
  };
  const namer = { account, name: "x", secondClaim: {} };
  return {
    urls: { registry: "", hub: "", api: "", chain: "" },
    alice: account,
    bob: account,
    namers: [namer, namer],
    aliceName: "x",
    castHash: "0x",
    castBytes: new Uint8Array(),
    keyRequestToken: "x",
    signInChannelToken: "x",
    keyRequestBody: {},
    approvalBody: {},
    demoAction: {},
    ccipData: "0x",
  };
}
