import { bytesToBase58 } from "../base58.js";
import { verifyEd25519 } from "../ed25519.js";
import { verifyVerificationClaim } from "../eip712/verificationClaim.js";
import type { HubError } from "../errors.js";
import {
  Protocol,
  type VerificationAddAddressBody,
  type VerificationRemoveBody,
} from "../generated/message.js";
import { toHex } from "../hex.js";
import type { NamingProfile } from "../naming.js";
import { invalid, invalidParam } from "./errors.js";

/** Chains the reference accepted for contract-wallet (ERC-1271) claims. */
const CONTRACT_CHAIN_IDS = new Set([1, 5, 10, 420]);

export interface VerificationContext {
  fid: number;
  network: number;
  profile: NamingProfile;
  solanaVerifications: boolean;
}

/** Outcome of an accepted claim: which profile's domain an Ethereum claim was signed under. */
export interface ClaimMatch {
  profile?: NamingProfile;
}

function validateEthAddress(address: Uint8Array): HubError | undefined {
  if (address.length === 0) return invalid("Ethereum address is missing");
  return address.length === 20 ? undefined : invalid("Ethereum address must be 20 bytes");
}

function validateBlockHash(blockHash: Uint8Array): HubError | undefined {
  if (blockHash.length === 0) return invalid("blockHash is missing");
  return blockHash.length === 32 ? undefined : invalid("blockHash must be 32 bytes");
}

async function verifyEthClaim(
  body: VerificationAddAddressBody,
  context: VerificationContext,
): Promise<HubError | ClaimMatch> {
  // r‖s‖v only: the reference library and the successor node both reject compact 64-byte forms.
  if (body.claimSignature.length !== 65) return invalid("invalid claimSignature");
  const claim = {
    fid: BigInt(context.fid),
    address: toHex(body.address),
    blockHash: toHex(body.blockHash),
    network: context.network,
  };
  const profile = await verifyVerificationClaim(context.profile, claim, body.claimSignature);
  return profile === undefined ? invalid("invalid claimSignature") : { profile };
}

/** Synchronous part of the checks; returns "eth-claim" when only the EIP-712 recovery remains. */
function checkVerificationAdd(
  body: VerificationAddAddressBody,
  context: VerificationContext,
): HubError | "eth-claim" | undefined {
  if (body.protocol === Protocol.ETHEREUM) {
    const error = validateEthAddress(body.address) ?? validateBlockHash(body.blockHash);
    if (error !== undefined) return error;
    if (body.claimSignature.length > 2048) return invalid("claimSignature > 2048 bytes");
    const chainIdOk =
      body.verificationType === 0
        ? body.chainId === 0
        : CONTRACT_CHAIN_IDS.has(body.chainId) || body.chainId === 0;
    if (!chainIdOk) return invalidParam("Invalid chain ID");
    if (body.verificationType === 0) return "eth-claim";
    if (body.verificationType === 1) {
      // ERC-1271 checks need an RPC client for the wallet's chain, which this node does not have.
      return invalid(`contract verifications are not supported: no RPC client for chainId ${body.chainId}`);
    }
    return invalidParam("Invalid verification type");
  }
  if (body.protocol === Protocol.SOLANA) {
    if (!context.solanaVerifications) return invalid("solana verifications are not enabled");
    if (body.address.length !== 32) return invalid("solana address must be 32 bytes");
    if (body.blockHash.length !== 32) return invalid("blockHash must be 32 bytes");
    if (body.claimSignature.length !== 64) return invalid("claimSignature != 64 bytes");
    const claim =
      `fid: ${context.fid} address: ${bytesToBase58(body.address)} network: ${context.network} ` +
      `blockHash: ${bytesToBase58(body.blockHash)} protocol: 1`;
    if (!verifyEd25519(body.claimSignature, Buffer.from(claim, "utf8"), body.address)) {
      return invalid("invalid claimSignature");
    }
    return undefined;
  }
  return invalid("invalid verification protocol");
}

export async function validateVerificationAddBody(
  body: VerificationAddAddressBody,
  context: VerificationContext,
): Promise<HubError | ClaimMatch> {
  const checked = checkVerificationAdd(body, context);
  if (checked === "eth-claim") return verifyEthClaim(body, context);
  return checked ?? {};
}

export function validateVerificationRemoveBody(body: VerificationRemoveBody): HubError | undefined {
  if (body.protocol === Protocol.ETHEREUM) return validateEthAddress(body.address);
  if (body.protocol === Protocol.SOLANA) {
    if (body.address.length === 0) return invalid("solana address is missing");
    return body.address.length === 32 ? undefined : invalid("solana address must be 32 bytes");
  }
  return invalid("invalid verification protocol");
}
