/** On-chain events, signers and storage limits (the HTTP API's onChain… and storageLimitsByFid). */
import { HubError } from "../../../protocol/errors.js";
import { OnChainEventType, type OnChainEvent } from "../../../protocol/generated/onchain_event.js";
import type {
  FidRequest,
  IdRegistryEventByAddressRequest,
  OnChainEventRequest,
  OnChainEventResponse,
  SignerRequest,
  SignersByFidRequest,
  StorageLimitsResponse,
} from "../../../protocol/generated/request_response.js";
import { StoreType } from "../../../protocol/generated/request_response.js";
import { StorageUnitType } from "../../../protocol/generated/message.js";
import { chainOrderKey, pageInMemory } from "../../data/paging.js";
import { SIGNER_PAGE_KEY_LENGTHS } from "../../data/reads/signers.js";
import type { StorageLimitsJson } from "../../service.js";
import { type GrpcContext, type Handlers, type PagingFields, pageOf, unary } from "./call.js";

const CHAIN_KEY_LENGTH = 8;

/** A fid has few on-chain events of a kind, so they are paged in memory, by chain order. */
function eventPage(events: OnChainEvent[], request: PagingFields): OnChainEventResponse {
  const { items, next } = pageInMemory(events, pageOf(request, CHAIN_KEY_LENGTH), chainOrderKey);
  return { events: items, nextPageToken: next };
}

/** The service's storage limits (enums by name, as the HTTP API's JSON has them) as StorageLimitsResponse. */
function storageLimits(json: StorageLimitsJson): StorageLimitsResponse {
  return {
    limits: json.limits.map((limit) => ({
      storeType: StoreType[limit.name as keyof typeof StoreType],
      name: limit.name,
      limit: limit.limit,
      used: limit.used,
      earliestTimestamp: limit.earliestTimestamp,
      earliestHash: Buffer.from(limit.earliestHash, "base64"),
    })),
    units: json.units,
    unitDetails: json.unitDetails.map((detail) => ({
      unitType: StorageUnitType[detail.unitType as keyof typeof StorageUnitType],
      unitSize: detail.unitSize,
      purchasedUnitSize: detail.purchasedUnitSize,
      lentUnitSize: detail.lentUnitSize,
      borrowedUnitSize: detail.borrowedUnitSize,
    })),
    tierSubscriptions: [],
  };
}

export function onChainHandlers(ctx: GrpcContext): Handlers {
  const { service } = ctx;
  return {
    getOnChainSigner: unary(ctx, async (request: SignerRequest) =>
      service.onChain.signer(request.fid, request.signer),
    ),
    getOnChainSignersByFid: unary(ctx, async (request: FidRequest) =>
      eventPage(await service.onChain.signersByFid(request.fid), request),
    ),
    getSigner: unary(ctx, async (request: SignerRequest) => ({
      signer: await service.signers.signer(request.fid, request.signer),
    })),
    getSignersByFid: unary(ctx, async (request: SignersByFidRequest) =>
      service.signers.signersByFid({
        fid: request.fid,
        page: pageOf(request, SIGNER_PAGE_KEY_LENGTHS),
        requesterFids: request.requesterFids,
      }),
    ),
    getOnChainEvents: unary(ctx, async (request: OnChainEventRequest) =>
      eventPage(await service.onChain.eventsByFid(request.fid, request.eventType), request),
    ),
    getIdRegistryOnChainEvent: unary(ctx, async (request: FidRequest) => {
      const events = await service.onChain.eventsByFid(request.fid, OnChainEventType.EVENT_TYPE_ID_REGISTER);
      const latest = events.at(-1);
      if (latest === undefined) throw new HubError("not_found", "id registry event not found");
      return latest;
    }),
    getIdRegistryOnChainEventByAddress: unary(ctx, async (request: IdRegistryEventByAddressRequest) =>
      service.onChain.idRegistryEventByAddress(request.address),
    ),
    getCurrentStorageLimitsByFid: unary(ctx, async (request: FidRequest) =>
      storageLimits(await service.storage.limitsByFid(request.fid)),
    ),
  };
}
