/** The hub's HTTP API as the CLI uses it (docs/hub.md). */
import { request } from "./request.js";

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

export function hubClient(base: string) {
  const get = <T>(path: string, missingIsUndefined = false) =>
    request<T>("hub", base, path, { missingIsUndefined });
  return {
    base,
    submitMessage: (bytes: Uint8Array) =>
      request<HubMessage>("hub", base, "/v1/submitMessage", { body: bytes }),
    castsByFid: (fid: number, pageSize: number) =>
      get<HubPage>(`/v1/castsByFid?fid=${fid}&reverse=true&pageSize=${pageSize}`),
    castById: (fid: number, hash: string) => get<HubMessage>(`/v1/castById?fid=${fid}&hash=${hash}`, true),
    userDataByFid: (fid: number) => get<HubPage>(`/v1/userDataByFid?fid=${fid}`),
    userNameProofByName: (name: string) =>
      get<UserNameProofJson | undefined>(`/v1/userNameProofByName?name=${encodeURIComponent(name)}`, true),
    /** The stream of hub events as SSE, from `fromEventId` (inclusive) or the next event. */
    eventStreamUrl: (fromEventId: number | undefined) =>
      `${base}/v1/events/stream${fromEventId === undefined ? "" : `?from_event_id=${fromEventId}`}`,
  };
}

export type HubClient = ReturnType<typeof hubClient>;
