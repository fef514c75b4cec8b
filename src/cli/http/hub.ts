/** The hub's HTTP API as the CLI uses it (docs/hub.md), through the SDK's HubClient. */
import { HubClient as SdkHubClient } from "../../sdk/index.js";
import { sdkOptions, throughSdk } from "./request.js";

/** A message as the hub renders it in JSON (only the fields the CLI reads are typed). */
export interface HubMessage {
  hash: string;
  data: {
    type: string;
    fid: number;
    timestamp: number;
    castAddBody?: {
      text: string;
      mentions?: number[];
      mentionsPositions?: number[];
      parentCastId?: { fid: number; hash: string };
      parentUrl?: string;
      embeds?: { url?: string; castId?: { fid: number; hash: string } }[];
    };
    userDataBody?: { type: string; value: string };
    linkBody?: { type: string; targetFid?: number };
  };
}

export interface HubPage {
  messages: HubMessage[];
  nextPageToken: string;
}

export interface UserNameProofJson {
  timestamp: number;
  name: string;
  owner: string;
  fid: number;
  type: string;
}

/** A key of a fid as /v1/signersByFid lists it (the fields the CLI reads). */
export interface SignerJson {
  source: "SIGNER_SOURCE_ONCHAIN" | "SIGNER_SOURCE_OFFCHAIN";
  key: string;
  scopes?: string[];
  expiresAt?: number;
  requestFid?: number;
}

export interface SignersJson {
  signers: SignerJson[];
  nextPageToken?: string;
  currentUserNonce: number;
}

export function hubClient(base: string) {
  const sdk = new SdkHubClient(base, sdkOptions());
  // Answers are typed as the few fields the CLI reads (above), a part of what the SDK types.
  const call = <T>(run: () => Promise<unknown>) => throughSdk("hub", base, run) as Promise<T>;
  const maybe = <T>(run: () => Promise<unknown>) =>
    throughSdk("hub", base, run, true) as Promise<T | undefined>;
  return {
    base,
    submitMessage: (bytes: Uint8Array) => call<HubMessage>(() => sdk.submitMessage(bytes)),
    /** A page of the fid's cast messages, newest first: adds and the removes that replaced adds. */
    castsByFid: (fid: number, pageSize: number, pageToken?: string) =>
      call<HubPage>(() => sdk.get("/v1/castsByFid", { fid, reverse: "true", pageSize, pageToken })),
    /** The cast, or undefined when the fid has no such cast (never cast, or removed). */
    castById: (fid: number, hash: string) => maybe<HubMessage>(() => sdk.get("/v1/castById", { fid, hash })),
    /** A page of every key of the fid, on chain and added by message, with its user nonce. */
    signersByFid: (fid: number, pageToken?: string) =>
      call<SignersJson>(() => sdk.get("/v1/signersByFid", { fid, pageToken })),
    userDataByFid: (fid: number) => call<HubPage>(() => sdk.get("/v1/userDataByFid", { fid })),
    userNameProofByName: (name: string) =>
      maybe<UserNameProofJson>(() => sdk.get("/v1/userNameProofByName", { name })),
    /** The stream of hub events as SSE, from `fromEventId` (inclusive) or the next event. */
    eventStreamUrl: (fromEventId: number | undefined) => sdk.eventStreamUrl(fromEventId),
  };
}

export type HubClient = ReturnType<typeof hubClient>;
