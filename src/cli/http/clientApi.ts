/** The client API's HTTP API as the CLI uses it (docs/clientapi.md); answers are `{result}`. */
import type { SignedKeyRequestJson } from "../../clientapi/index.js";
import type { ChannelJson } from "../../clientapi/render.js";
import { type RequestOptions, request } from "./request.js";

export interface SignedKeyRequestBody {
  key: string;
  requestFid: number;
  deadline: number;
  signature: string;
  redirectUrl?: string;
}

export interface ChannelBody {
  id: string;
  url: string;
  name: string;
  description?: string;
  imageUrl: string;
  leadFid?: number;
}

export function clientApiClient(base: string, adminToken?: string) {
  const call = async <T>(path: string, options: RequestOptions = {}): Promise<T> =>
    (await request<{ result: T }>("client API", base, path, options)).result;
  // Operator routes take the admin token when castnet runs with one; loopback callers need none.
  const operator = adminToken ? { authorization: `Bearer ${adminToken}` } : undefined;
  return {
    base,
    createKeyRequest: (body: SignedKeyRequestBody) =>
      call<{ signedKeyRequest: SignedKeyRequestJson }>("/v2/signed-key-requests", { body }),
    keyRequest: (token: string) =>
      call<{ signedKeyRequest: SignedKeyRequestJson }>(
        `/v2/signed-key-request?token=${encodeURIComponent(token)}`,
      ),
    channels: () => call<{ channels: ChannelJson[] }>("/v2/all-channels"),
    createChannel: (body: ChannelBody) =>
      call<{ channel: ChannelJson }>("/v1/admin/channels", { body, headers: operator }),
    follow: (channelId: string, fid: number) =>
      call<unknown>(`/v1/admin/channels/${encodeURIComponent(channelId)}/followers/${fid}`, {
        method: "PUT",
        body: {},
        headers: operator,
      }),
    unfollow: (channelId: string, fid: number) =>
      call<unknown>(`/v1/admin/channels/${encodeURIComponent(channelId)}/followers/${fid}`, {
        method: "DELETE",
        headers: operator,
      }),
  };
}

export type ClientApiClient = ReturnType<typeof clientApiClient>;
