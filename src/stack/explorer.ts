/**
 * The explorer and the approval page (src/explorer), mounted on the client API's server: what the
 * pages need of that server comes from the client API's service and error shape, everything else
 * from the parts' public HTTP APIs at the configured URLs.
 */
import type { FastifyInstance } from "fastify";
import {
  type OpenSignInChannel,
  type ClientApiService,
  ClientApiError,
  clientApiErrorSchema,
  notFound,
} from "../clientapi/index.js";
import {
  DEFAULT_PAGE_LIMITS,
  type DevKeystore,
  type ExplorerHost,
  type PageLimits,
  type PartUrls,
  type SignInChannelView,
  explorerPages,
} from "../explorer/index.js";
import { KEY_GATEWAY_ADDRESS, OP_MAINNET_CHAIN_ID } from "../protocol/contracts.js";
import { isRealNetworkKeyGateway } from "../protocol/eip712/index.js";
import { domainName, type NamingProfile } from "../protocol/naming.js";

export interface ExplorerMount {
  /** The parts' base URLs as configured: the pages read every part there. */
  urls: () => PartUrls;
  naming: NamingProfile;
  /** The client API's key gateway, when not the deployed one (its `keyGatewayContract`). */
  keyGatewayContract?: `0x${string}`;
  devKeystore?: DevKeystore;
  pageLimits?: Partial<PageLimits>;
  now?: () => number;
}

function clientApiHost(service: ClientApiService): ExplorerHost {
  return {
    async keyRequest(token) {
      try {
        const json = await service.keyRequests.get(token);
        return { ...json, deadline: await service.keyRequests.deadlineOf(token) };
      } catch (error) {
        if (error instanceof ClientApiError && error.code === "not_found") return undefined;
        throw error;
      }
    },
    async signInChannel(token) {
      try {
        return signInView(token, await service.signIns.pending(token));
      } catch (error) {
        if (error instanceof ClientApiError && error.code === "unauthorized") return undefined;
        throw error;
      }
    },
    async completeSignIn(token, completion) {
      return signInView(token, await service.signIns.complete(token, completion));
    },
    isRefusal: (error): error is ClientApiError => error instanceof ClientApiError && error.statusCode < 500,
    errorSchema: clientApiErrorSchema,
    forbidden: (message) => new ClientApiError("forbidden", message),
    notFound,
  };
}

function signInView(token: string, { channel, expiresAt }: OpenSignInChannel): SignInChannelView {
  const { siweUri, domain, notBefore, expirationTime, requestId } = channel.signatureParams;
  return {
    token,
    state: channel.state,
    domain,
    siweUri,
    nonce: channel.nonce,
    notBefore,
    expirationTime,
    requestId,
    expiresAt,
    fid: channel.fid,
  };
}

/** The client API's `mount` option that serves the explorer on its server. */
export function mountExplorer(options: ExplorerMount) {
  return async (app: FastifyInstance, service: ClientApiService) => {
    await app.register(explorerPages, {
      host: clientApiHost(service),
      urls: options.urls,
      devKeystore: options.devKeystore,
      realNetworkDomain: isRealNetworkKeyGateway({
        name: domainName(options.naming, "KeyGateway"),
        chainId: OP_MAINNET_CHAIN_ID,
        verifyingContract: options.keyGatewayContract ?? KEY_GATEWAY_ADDRESS,
      }),
      limits: { ...DEFAULT_PAGE_LIMITS, ...options.pageLimits },
      now: options.now ?? Date.now,
    });
  };
}
