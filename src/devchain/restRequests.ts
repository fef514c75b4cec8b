/**
 * What the REST routes accept, checked before anything reaches the chain: addresses, keys, key and
 * metadata types, storage units. What the contracts then refuse comes back as their reverts
 * (service.ts turns them into the REST error codes).
 */
import { getAddress, isAddress, zeroAddress, type Address } from "viem";
import type { Hex, KeyAddRequest, RegisterRequest } from "../interfaces/chain.js";
import { DevchainError } from "../interfaces/chainErrors.js";
import {
  KEY_TYPE_AUTH_ADDRESS,
  KEY_TYPE_ED25519,
  METADATA_TYPE_SIGNED_KEY_REQUEST,
} from "../protocol/contracts.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const KEY = /^0x[0-9a-fA-F]{64}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
/** The most units one REST rent takes (the contract has no such bound; the REST route keeps its own). */
export const MAX_UNITS_PER_RENT = 1000;

/** A 0x address; mixed case must be a valid EIP-55 checksum. Returned checksummed. */
export function normaliseAddress(value: string, field: string): Address {
  if (!ADDRESS.test(value) || !isAddress(value, { strict: true })) {
    throw new DevchainError(
      "invalid_address",
      `${field} must be a 0x-prefixed 20-byte address (mixed case only with a valid checksum)`,
    );
  }
  return getAddress(value);
}

export function isFid(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1;
}

export function unknownFid(fid: number): DevchainError {
  return new DevchainError("unknown_fid", `fid ${fid} is not registered`);
}

export function parseRegister(request: RegisterRequest): { custody: Address; recovery: Address } {
  const custody = normaliseAddress(request.custody, "custody");
  const recovery = normaliseAddress(request.recovery ?? zeroAddress, "recovery");
  if (custody === zeroAddress)
    throw new DevchainError("invalid_address", "custody must not be the zero address");
  return { custody, recovery };
}

export function parseKey(value: string): Hex {
  if (!KEY.test(value))
    throw new DevchainError("invalid_key", "key must be 32 bytes as 0x hex (64 hex digits)");
  return value.toLowerCase() as Hex;
}

/** A key add: key type 1 (Ed25519) or 2 (auth address), each with metadata type 1; metadata kept as given. */
export function parseKeyAdd(request: KeyAddRequest) {
  const keyType = request.keyType ?? KEY_TYPE_ED25519;
  const metadataType = request.metadataType ?? METADATA_TYPE_SIGNED_KEY_REQUEST;
  if (
    (keyType !== KEY_TYPE_ED25519 && keyType !== KEY_TYPE_AUTH_ADDRESS) ||
    metadataType !== METADATA_TYPE_SIGNED_KEY_REQUEST
  ) {
    throw new DevchainError(
      "unsupported_key_type",
      `only keyType ${KEY_TYPE_ED25519} or ${KEY_TYPE_AUTH_ADDRESS} with metadataType ${METADATA_TYPE_SIGNED_KEY_REQUEST} has a validator on this chain`,
    );
  }
  const key = parseKey(request.key);
  const metadata = request.metadata ?? "0x";
  if (!HEX_BYTES.test(metadata)) throw new DevchainError("bad_request", "metadata must be 0x hex bytes");
  return { fid: request.fid, key, keyType, metadataType, metadata: metadata.toLowerCase() as Hex };
}

export function checkUnits(units: number): void {
  if (!Number.isSafeInteger(units) || units < 1 || units > MAX_UNITS_PER_RENT) {
    throw new DevchainError("invalid_units", `units must be an integer from 1 to ${MAX_UNITS_PER_RENT}`);
  }
}

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

export function isTransactionHash(value: unknown): value is Hex {
  return typeof value === "string" && TRANSACTION_HASH.test(value);
}
