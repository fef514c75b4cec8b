import type { OnChainEvent } from "../generated/onchain_event.js";
import { toBase64Json, toHexJson } from "./bytes.js";
import {
  ID_REGISTER_EVENT_TYPE_NAMES,
  ON_CHAIN_EVENT_TYPE_NAMES,
  SIGNER_EVENT_TYPE_NAMES,
  TIER_TYPE_NAMES,
  enumName,
} from "./enums.js";

type EnumJson = string | number;

export interface OnChainEventJson {
  type: EnumJson;
  chainId: number;
  blockNumber: number;
  blockHash: string;
  /** Unix seconds. */
  blockTimestamp: number;
  transactionHash: string;
  logIndex: number;
  fid: number;
  signerEventBody?: {
    key: string;
    keyType: number;
    eventType: EnumJson;
    metadata: string;
    metadataType: number;
  };
  signerMigratedEventBody?: { migratedAt: number };
  idRegisterEventBody?: { to: string; eventType: EnumJson; from: string; recoveryAddress: string };
  /** payer stays base64: the reference hub's hex rewrite does not list it. */
  storageRentEventBody?: { payer: string; units: number; expiry: number };
  tierPurchaseEventBody?: { tierType: EnumJson; forDays: number; payer: string };
  txIndex: number;
  version: number;
}

export function renderOnChainEvent(event: OnChainEvent): OnChainEventJson {
  const out = {
    type: enumName(ON_CHAIN_EVENT_TYPE_NAMES, event.type),
    chainId: event.chainId,
    blockNumber: event.blockNumber,
    blockHash: toHexJson(event.blockHash),
    blockTimestamp: event.blockTimestamp,
    transactionHash: toHexJson(event.transactionHash),
    logIndex: event.logIndex,
    fid: event.fid,
  } as OnChainEventJson;
  const signer = event.signerEventBody;
  if (signer !== undefined) {
    out.signerEventBody = {
      key: toHexJson(signer.key),
      keyType: signer.keyType,
      eventType: enumName(SIGNER_EVENT_TYPE_NAMES, signer.eventType),
      metadata: toBase64Json(signer.metadata),
      metadataType: signer.metadataType,
    };
  }
  if (event.signerMigratedEventBody !== undefined) {
    out.signerMigratedEventBody = { migratedAt: event.signerMigratedEventBody.migratedAt };
  }
  const idRegister = event.idRegisterEventBody;
  if (idRegister !== undefined) {
    out.idRegisterEventBody = {
      to: toHexJson(idRegister.to),
      eventType: enumName(ID_REGISTER_EVENT_TYPE_NAMES, idRegister.eventType),
      from: toHexJson(idRegister.from),
      recoveryAddress: toHexJson(idRegister.recoveryAddress),
    };
  }
  const rent = event.storageRentEventBody;
  if (rent !== undefined) {
    out.storageRentEventBody = { payer: toBase64Json(rent.payer), units: rent.units, expiry: rent.expiry };
  }
  const tier = event.tierPurchaseEventBody;
  if (tier !== undefined) {
    out.tierPurchaseEventBody = {
      tierType: enumName(TIER_TYPE_NAMES, tier.tierType),
      forDays: tier.forDays,
      payer: toBase64Json(tier.payer),
    };
  }
  out.txIndex = event.txIndex;
  out.version = event.version;
  return out;
}
