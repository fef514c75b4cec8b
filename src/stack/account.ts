/** `castnet account create`: a ready-to-use development account on a running devchain, in one step. */
import { bytesToHex, type Hex, type LocalAccount, numberToHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ChainWriter } from "../interfaces/chain.js";
import { httpChainClient } from "../interfaces/chainHttp.js";
import { jsonRpcCall } from "../interfaces/jsonRpcHttp.js";
import { KEY_TYPE_ED25519, METADATA_TYPE_SIGNED_KEY_REQUEST } from "../protocol/contracts.js";
import { type Ed25519KeyPair, generateEd25519KeyPair } from "../protocol/ed25519.js";
import {
  encodeSignedKeyRequestMetadata,
  RECOMMENDED_SIGNED_KEY_REQUEST_VALIDITY_SECONDS,
  signSignedKeyRequest,
} from "../protocol/eip712/index.js";
import { NEUTRAL, type NamingProfile } from "../protocol/naming.js";

export interface CreateAccountOptions {
  /** Base URL of the devchain, e.g. http://127.0.0.1:2284. */
  chainUrl: string;
  /** Storage units to rent (1–1000). */
  units: number;
  adminToken?: string;
  /** Wei the custody address is given (castnet_setBalance), as the stack's `--dev-balance`; 0 or none: nothing. */
  balance?: bigint;
  /** Domain of the signed key request signature; the neutral profile unless given. */
  naming?: NamingProfile;
}

export interface AccountDetails {
  fid: number;
  custodyAddress: Hex;
  custodyPrivateKey: Hex;
  recoveryAddress: Hex;
  /** The Ed25519 signer (32-byte public key), active for the fid once this returns. */
  signerPublicKey: Hex;
  /** The signer's 32-byte Ed25519 seed. */
  signerPrivateKey: Hex;
  storageUnits: number;
  /** Wei the custody address was given. */
  balance: bigint;
  warning: string;
}

/**
 * Generates a custody key, registers a fid for it (the custody address is also the recovery
 * address, so that the one printed key controls both), rents storage, and adds a fresh Ed25519 key
 * as the fid's signer with a signed key request the custody address made for itself, as the key
 * registry's validator expects; gives the custody address `balance` wei. Each step waits until its
 * block is mined (the balance's is mined with the storage's, or before it).
 */
export async function createAccount(options: CreateAccountOptions): Promise<AccountDetails> {
  const chain = httpChainClient(options.chainUrl, { adminToken: options.adminToken });
  const custodyPrivateKey = generatePrivateKey();
  const custody = privateKeyToAccount(custodyPrivateKey);
  const registered = await chain.register({ custody: custody.address, recovery: custody.address });
  const balance = options.balance ?? 0n;
  // After the register, which says in the devchain's words when it cannot be reached or refuses.
  if (balance > 0n)
    await jsonRpcCall(options.chainUrl, "castnet_setBalance", [custody.address, numberToHex(balance)], {
      adminToken: options.adminToken,
    });
  await chain.rentStorage(registered.fid, options.units);

  const signer = await addSigner(chain, custody, registered.fid, options.naming ?? NEUTRAL);
  return {
    fid: registered.fid,
    custodyAddress: registered.custody,
    custodyPrivateKey,
    recoveryAddress: registered.recovery,
    signerPublicKey: signer.publicKey,
    signerPrivateKey: signer.privateKey,
    storageUnits: options.units,
    balance,
    warning: "development keys: never use on a real network",
  };
}

/**
 * An Ed25519 key (a fresh one unless given) added as a signer of `fid`, with a signed key request its
 * custody address made for itself, as the key registry's validator expects; returns once the key add
 * is mined.
 */
export async function addSigner(
  chain: ChainWriter,
  custody: LocalAccount,
  fid: number,
  naming: NamingProfile,
  signer: Ed25519KeyPair = generateEd25519KeyPair(),
): Promise<{ publicKey: Hex; privateKey: Hex }> {
  const publicKey = bytesToHex(signer.publicKey);
  const deadline = Math.floor(Date.now() / 1000) + RECOMMENDED_SIGNED_KEY_REQUEST_VALIDITY_SECONDS;
  const signature = await signSignedKeyRequest(custody, naming, {
    requestFid: fid,
    key: publicKey,
    deadline,
  });
  const metadata = encodeSignedKeyRequestMetadata({
    requestFid: fid,
    requestSigner: custody.address,
    signature,
    deadline,
  });
  await chain.addKey({
    fid,
    key: publicKey,
    keyType: KEY_TYPE_ED25519,
    metadataType: METADATA_TYPE_SIGNED_KEY_REQUEST,
    metadata,
  });
  return { publicKey, privateKey: bytesToHex(signer.privateKey) };
}
