/**
 * Who signed a sign-in message, checked as `@farcaster/auth-client`'s verifySignInMessage checks it
 * (docs/reference/sign-in.md §4): the message's own fields, the nonce and domain expected, the
 * signature's address, then that address against the chain: an active auth address of the fid (key
 * type 2) or, failing that, its custody address. The relay and the Quick Auth server both use it.
 */
import { type Address, type Hex, isAddressEqual, pad, recoverMessageAddress } from "viem";
import type { Logger } from "../../http/index.js";
import type { ChainClient } from "../../interfaces/chain.js";
import { readSignInMessage, type ReadSignInMessage, SignInMessageError } from "../../protocol/siwf.js";
import { ClientApiError, badInput, chainFailure } from "../errors.js";

/** Key type 2 of the KeyRegistry: an Ethereum address registered as a key of the fid. */
const AUTH_ADDRESS_KEY_TYPE = 2;

export type AuthMethod = "custody" | "authAddress";

export interface SignInCheck {
  message: string;
  signature: string;
  /** The domain the message must name. */
  domain: string;
  /** The nonce the message must carry; undefined when the caller checks it itself. */
  nonce?: string;
  /** Whether an auth address may sign in for the fid (the reference's default: yes). */
  acceptAuthAddress: boolean;
  now: Date;
}

export interface VerifiedSignIn extends ReadSignInMessage {
  address: Address;
  authMethod: AuthMethod;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * The verified sign-in, or a ClientApiError: bad_request for the message, unauthorized for its
 * signer, unavailable when the chain does not answer (logged on `logger`).
 */
export async function verifySignIn(
  chain: ChainClient,
  check: SignInCheck,
  logger: Logger,
): Promise<VerifiedSignIn> {
  let read: ReadSignInMessage;
  try {
    read = readSignInMessage(check.message, check.now);
  } catch (error) {
    if (error instanceof SignInMessageError) throw badInput(error.message);
    throw error;
  }
  const { message, fid } = read;
  if (check.nonce !== undefined && message.nonce !== check.nonce)
    throw unauthorized("the message's nonce is not the one this sign-in was given");
  if (message.domain !== check.domain)
    throw unauthorized(`the message is for the domain ${message.domain}, not ${check.domain}`);
  if (!SIGNATURE.test(check.signature))
    throw badInput("signature must be 65 bytes as 0x-prefixed hex (an Ethereum personal_sign signature)");
  let signer: Address;
  try {
    signer = await recoverMessageAddress({ message: check.message, signature: check.signature as Hex });
  } catch {
    throw badInput("the signature is malformed: no address signed it");
  }
  if (!isAddressEqual(signer, message.address))
    throw unauthorized(`the message was not signed by its address ${message.address}`);
  let account;
  try {
    account = await chain.getAccount(fid);
  } catch (error) {
    throw chainFailure(error, `the keys of fid ${fid}`, logger);
  }
  if (account === undefined) throw unauthorized(`fid ${fid} is not registered`);
  const authKey = pad(signer.toLowerCase() as Hex, { size: 32 });
  if (
    check.acceptAuthAddress &&
    account.signers.some((s) => s.keyType === AUTH_ADDRESS_KEY_TYPE && s.key.toLowerCase() === authKey)
  )
    return { ...read, address: signer, authMethod: "authAddress" };
  if (isAddressEqual(account.custody, signer)) return { ...read, address: signer, authMethod: "custody" };
  throw unauthorized(
    check.acceptAuthAddress
      ? `${signer} is neither an auth address nor the custody address of fid ${fid}`
      : `${signer} is not the custody address of fid ${fid}`,
  );
}

function unauthorized(message: string): ClientApiError {
  return new ClientApiError("unauthorized", message);
}
