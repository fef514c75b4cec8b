/** The client API's HTTP API as the CLI uses it (docs/clientapi.md), through the SDK's ClientApiClient. */
import type { SignedKeyRequest } from "../../sdk/index.js";
import type { ChannelJson } from "../../clientapi/render.js";
import type { QuickAuthKeyState } from "../../clientapi/signIn/quickAuth.js";
import { ClientApiClient as SdkClientApiClient } from "../../sdk/index.js";
import { sdkOptions, throughSdk } from "./request.js";

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
  // Operator routes take the admin token when castnet runs with one; loopback callers need none.
  const sdk = new SdkClientApiClient(base, sdkOptions({ adminToken: adminToken || undefined }));
  // Answers are `{result}`; typed as the CLI's own JSON types of the client API.
  const result = async <T>(run: () => Promise<{ data?: unknown }>) =>
    ((await throughSdk("client API", base, run)).data as { result: T }).result;
  return {
    base,
    createKeyRequest: (body: SignedKeyRequestBody) =>
      result<{ signedKeyRequest: SignedKeyRequest }>(() => sdk.api.POST("/v2/signed-key-requests", { body })),
    keyRequest: (token: string) =>
      result<{ signedKeyRequest: SignedKeyRequest }>(() =>
        sdk.api.GET("/v2/signed-key-request", { params: { query: { token } } }),
      ),
    channels: () => result<{ channels: ChannelJson[] }>(() => sdk.api.GET("/v2/all-channels")),
    /** The channel of this id, or undefined when there is none. */
    channel: async (channelId: string) => {
      const answer = await throughSdk(
        "client API",
        base,
        () => sdk.api.GET("/v1/channel", { params: { query: { channelId } } }),
        true,
      );
      return (answer?.data as { result: { channel: ChannelJson } } | undefined)?.result.channel;
    },
    createChannel: (body: ChannelBody) =>
      result<{ channel: ChannelJson }>(() => sdk.api.POST("/v1/admin/channels", { body })),
    follow: (channelId: string, fid: number) =>
      result<unknown>(() =>
        sdk.api.PUT("/v1/admin/channels/{channelId}/followers/{fid}", {
          params: { path: { channelId, fid } },
          body: {},
        }),
      ),
    unfollow: (channelId: string, fid: number) =>
      result<unknown>(() =>
        sdk.api.DELETE("/v1/admin/channels/{channelId}/followers/{fid}", {
          params: { path: { channelId, fid } },
        }),
      ),
    rotateQuickAuthKey: () =>
      result<{ keys: QuickAuthKeyState[] }>(() => sdk.api.POST("/v1/quick-auth/keys/rotate")),
  };
}

export type ClientApiClient = ReturnType<typeof clientApiClient>;
