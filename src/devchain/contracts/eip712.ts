/**
 * The registries' EIP-712 signatures (docs/reference/contracts.md §2.1–§2.2): each contract's
 * domain at the chain's own id, the typed data of every signed path, per-contract nonces consumed by
 * the check, and OpenZeppelin 4's ECDSA rules (65 bytes, v 27 or 28, low s; no contract signers).
 */
import { hashTypedData, recoverAddress, zeroAddress, type Address, type Hex } from "viem";
import { KEY_GATEWAY_ADD_TYPES } from "../../protocol/eip712/keyGateway.js";
import { SIGNED_KEY_REQUEST_TYPES } from "../../protocol/eip712/signedKeyRequest.js";
import { signatureErrorsAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { revert, sameAddress } from "./execution.js";
import { signatureNonce } from "./reads.js";
import { stateKey, type CallContext } from "./state.js";

const DOMAIN_NAMES = {
  idGateway: "Farcaster IdGateway",
  idRegistry: "Farcaster IdRegistry",
  keyGateway: "Farcaster KeyGateway",
  keyRegistry: "Farcaster KeyRegistry",
  signedKeyRequestValidator: "Farcaster SignedKeyRequestValidator",
} as const;

export type SigningContract = keyof typeof DOMAIN_NAMES;

const TYPES = {
  Register: [
    { name: "to", type: "address" },
    { name: "recovery", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  Transfer: [
    { name: "fid", type: "uint256" },
    { name: "to", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  TransferAndChangeRecovery: [
    { name: "fid", type: "uint256" },
    { name: "to", type: "address" },
    { name: "recovery", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  ChangeRecoveryAddress: [
    { name: "fid", type: "uint256" },
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  ...KEY_GATEWAY_ADD_TYPES,
  Remove: [
    { name: "owner", type: "address" },
    { name: "key", type: "bytes" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  ...SIGNED_KEY_REQUEST_TYPES,
} as const;

type PrimaryType = keyof typeof TYPES;

/** A typed message's fields (addresses and bytes as hex, integers as bigint or number). */
type Message = Record<string, Hex | bigint | number>;

/** The digest `contract` checks a `primaryType` message against (its `_hashTypedDataV4`). */
export function typedDataDigest(
  ctx: CallContext,
  contract: SigningContract,
  primaryType: PrimaryType,
  message: Message,
): Hex {
  return hashTypedData({
    domain: {
      name: DOMAIN_NAMES[contract],
      version: "1",
      chainId: ctx.chainId,
      verifyingContract: CONTRACT_ADDRESSES[contract],
    },
    types: { [primaryType]: TYPES[primaryType] },
    primaryType,
    message,
  });
}

/** secp256k1's n / 2: a larger s is the malleable twin of a valid signature, which OpenZeppelin refuses. */
const HALF_CURVE_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** OpenZeppelin 4's `SignatureChecker.isValidSignatureNow` for an externally owned `signer`. */
export async function isValidSignatureNow(signer: Address, digest: Hex, signature: Hex): Promise<boolean> {
  if (signature.length !== 2 + 65 * 2 || sameAddress(signer, zeroAddress)) return false;
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16);
  if (s > HALF_CURVE_ORDER || (v !== 27 && v !== 28)) return false;
  try {
    return sameAddress(await recoverAddress({ hash: digest, signature }), signer);
  } catch {
    return false;
  }
}

/** Returns `owner`'s current nonce at `contract` and consumes it (Nonces._useNonce). */
export async function useNonce(ctx: CallContext, contract: Address, owner: Address): Promise<bigint> {
  const nonce = await signatureNonce(ctx.state, contract, owner);
  ctx.state.setBigInt(stateKey.signatureNonce(contract, owner), nonce + 1n);
  return nonce;
}

export interface SignedMessage {
  /** The contract whose domain and nonces the signature uses. */
  contract: SigningContract;
  primaryType: Exclude<PrimaryType, "SignedKeyRequest">;
  /** The message without its nonce, which is the signer's current one. */
  message: Message;
  signer: Address;
  deadline: bigint;
  sig: Hex;
}

/**
 * A signed path's check (§2.2): the signer's nonce consumed, then `SignatureExpired` past the
 * deadline, then `InvalidSignature` unless `signer` signed this message with that nonce.
 */
export async function verifySignedMessage(ctx: CallContext, signed: SignedMessage): Promise<void> {
  const nonce = await useNonce(ctx, CONTRACT_ADDRESSES[signed.contract], signed.signer);
  if (ctx.block.timestamp > signed.deadline) throw revert(signatureErrorsAbi, "SignatureExpired");
  const digest = typedDataDigest(ctx, signed.contract, signed.primaryType, {
    ...signed.message,
    nonce,
    deadline: signed.deadline,
  });
  if (!(await isValidSignatureNow(signed.signer, digest, signed.sig))) {
    throw revert(signatureErrorsAbi, "InvalidSignature");
  }
}
