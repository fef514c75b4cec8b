/**
 * JSON → OnChainEvent, the inverse of renderOnChainEvent. The devchain serves its events in the hub's
 * JSON and the hub reads them back, so this accepts what either hub dialect or profile writes:
 * enum names or numbers, 0x-hex with or without prefix, the payer in base64 or hex.
 */
import type { OnChainEvent } from "../generated/onchain_event.js";
import { HubError } from "../errors.js";
import { fromHexJson, fromHexOrBase64Json } from "./bytes.js";
import {
  ID_REGISTER_EVENT_TYPE_NAMES,
  ON_CHAIN_EVENT_TYPE_NAMES,
  SIGNER_EVENT_TYPE_NAMES,
  TIER_TYPE_NAMES,
  enumValue,
} from "./enums.js";

type Json = Record<string, unknown>;

export function isJsonObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function jsonUint(value: unknown, field: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === null) return 0;
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > max) {
    throw new HubError("bad_request.parse_failure", `${field} must be a non-negative integer`);
  }
  return n;
}

export function jsonEnum(
  names: readonly (readonly (string | undefined)[])[],
  value: unknown,
  field: string,
): number {
  if (value === undefined || value === null) return 0;
  const parsed = enumValue(names, value);
  if (parsed === undefined) throw new HubError("bad_request.parse_failure", `${field} is not a known value`);
  return parsed;
}

function body(value: unknown, field: string): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw new HubError("bad_request.parse_failure", `${field} must be an object`);
  return value;
}

const U32 = 0xffffffff;

export function parseOnChainEvent(json: unknown): OnChainEvent {
  if (!isJsonObject(json)) throw new HubError("bad_request.parse_failure", "onChainEvent must be an object");
  const event: OnChainEvent = {
    type: jsonEnum([ON_CHAIN_EVENT_TYPE_NAMES], json.type, "type"),
    chainId: jsonUint(json.chainId, "chainId", U32),
    blockNumber: jsonUint(json.blockNumber, "blockNumber", U32),
    blockHash: fromHexJson(json.blockHash, "blockHash"),
    blockTimestamp: jsonUint(json.blockTimestamp, "blockTimestamp"),
    transactionHash: fromHexJson(json.transactionHash, "transactionHash"),
    logIndex: jsonUint(json.logIndex, "logIndex", U32),
    fid: jsonUint(json.fid, "fid"),
    txIndex: jsonUint(json.txIndex, "txIndex", U32),
    version: jsonUint(json.version, "version", U32),
  };
  const signer = body(json.signerEventBody, "signerEventBody");
  if (signer !== undefined) {
    event.signerEventBody = {
      key: fromHexJson(signer.key, "signerEventBody.key"),
      keyType: jsonUint(signer.keyType, "signerEventBody.keyType", U32),
      eventType: jsonEnum([SIGNER_EVENT_TYPE_NAMES], signer.eventType, "signerEventBody.eventType"),
      metadata: fromHexOrBase64Json(signer.metadata, "signerEventBody.metadata"),
      metadataType: jsonUint(signer.metadataType, "signerEventBody.metadataType", U32),
    };
  }
  const migrated = body(json.signerMigratedEventBody, "signerMigratedEventBody");
  if (migrated !== undefined) {
    event.signerMigratedEventBody = {
      migratedAt: jsonUint(migrated.migratedAt, "signerMigratedEventBody.migratedAt", U32),
    };
  }
  const idRegister = body(json.idRegisterEventBody, "idRegisterEventBody");
  if (idRegister !== undefined) {
    event.idRegisterEventBody = {
      to: fromHexJson(idRegister.to, "idRegisterEventBody.to"),
      eventType: jsonEnum(
        [ID_REGISTER_EVENT_TYPE_NAMES],
        idRegister.eventType,
        "idRegisterEventBody.eventType",
      ),
      from: fromHexJson(idRegister.from, "idRegisterEventBody.from"),
      recoveryAddress: fromHexJson(idRegister.recoveryAddress, "idRegisterEventBody.recoveryAddress"),
    };
  }
  const rent = body(json.storageRentEventBody, "storageRentEventBody");
  if (rent !== undefined) {
    event.storageRentEventBody = {
      payer: fromHexOrBase64Json(rent.payer, "storageRentEventBody.payer"),
      units: jsonUint(rent.units, "storageRentEventBody.units", U32),
      expiry: jsonUint(rent.expiry, "storageRentEventBody.expiry", U32),
    };
  }
  const tier = body(json.tierPurchaseEventBody ?? json.tier_purchase_event_body, "tierPurchaseEventBody");
  if (tier !== undefined) {
    event.tierPurchaseEventBody = {
      tierType: jsonEnum([TIER_TYPE_NAMES], tier.tierType, "tierPurchaseEventBody.tierType"),
      forDays: jsonUint(tier.forDays, "tierPurchaseEventBody.forDays"),
      payer: fromHexOrBase64Json(tier.payer, "tierPurchaseEventBody.payer"),
    };
  }
  return event;
}
