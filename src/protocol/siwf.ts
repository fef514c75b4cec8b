/**
 * Sign In With Farcaster messages (FIP-11; docs/reference/sign-in.md §3): an EIP-4361 (SIWE) text
 * whose statement is "Farcaster Auth", on chain 10, with one resource naming the fid. The client
 * app builds and signs it for the app's channel; the app (or a Quick Auth server) reads it back and
 * checks who signed it against the chain.
 */
import type { Address } from "viem";
import { createSiweMessage, parseSiweMessage, type SiweMessage, validateSiweMessage } from "viem/siwe";

export const SIGN_IN_STATEMENT = "Farcaster Auth";
/** The statement of messages made before the protocol renamed the flow; readers still accept it. */
const LEGACY_SIGN_IN_STATEMENT = "Farcaster Connect";
/** Sign-in messages name OP mainnet, where the registries live, whatever chain serves them. */
export const SIGN_IN_CHAIN_ID = 10;
const FID_RESOURCE = /^farcaster:\/\/fid\/([1-9]\d*)\/?$/;

export interface SignInMessageFields {
  domain: string;
  /** The app's sign-in URI (the channel's `siweUri`). */
  uri: string;
  nonce: string;
  /** The signing address: the fid's custody address or one of its auth addresses. */
  address: Address;
  fid: number;
  issuedAt?: Date;
  notBefore?: Date;
  expirationTime?: Date;
  requestId?: string;
}

/** A sign-in message that does not read as one, in a sentence that says which part is wrong. */
export class SignInMessageError extends Error {
  override name = "SignInMessageError";
}

/** The message's text, as `@farcaster/auth-client`'s buildSignInMessage renders it. */
export function signInMessage(fields: SignInMessageFields): string {
  try {
    return createSiweMessage({
      domain: fields.domain,
      address: fields.address,
      statement: SIGN_IN_STATEMENT,
      uri: fields.uri,
      version: "1",
      chainId: SIGN_IN_CHAIN_ID,
      nonce: fields.nonce,
      issuedAt: fields.issuedAt ?? new Date(),
      notBefore: fields.notBefore,
      expirationTime: fields.expirationTime,
      requestId: fields.requestId,
      resources: [`farcaster://fid/${fields.fid}`],
    });
  } catch (error) {
    throw new SignInMessageError(firstLine(error));
  }
}

/**
 * What an app asks its sign-in message to carry: a relay channel's `signatureParams`, with the times
 * as the app sent them (docs/reference/sign-in.md §1.2).
 */
export interface SignInRequest {
  domain: string;
  siweUri: string;
  nonce: string;
  notBefore?: string;
  expirationTime?: string;
  requestId?: string;
}

/** The message `address` signs to sign `fid` in as `request` asks, as the user's client app builds it. */
export function requestedSignInMessage(request: SignInRequest, address: Address, fid: number): string {
  const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
  return signInMessage({
    domain: request.domain,
    uri: request.siweUri,
    nonce: request.nonce,
    address,
    fid,
    notBefore: date(request.notBefore),
    expirationTime: date(request.expirationTime),
    requestId: request.requestId,
  });
}

export interface ReadSignInMessage {
  message: SiweMessage & { address: Address; nonce: string; domain: string; uri: string };
  fid: number;
}

/**
 * The fields of a sign-in message, checked as a verifier checks them before any signature: a SIWE
 * text, in its time window at `now`, with the Farcaster statement, chain 10 and exactly one fid.
 */
export function readSignInMessage(text: string, now: Date): ReadSignInMessage {
  const message = parseSiweMessage(text);
  if (!message.address || !message.domain || !message.uri || !message.nonce || message.version !== "1")
    throw new SignInMessageError(
      "the message is not a Sign In With Ethereum message: it needs a domain, an address, a URI, a nonce and version 1",
    );
  if (!validateSiweMessage({ message, time: now })) {
    if (message.expirationTime && now >= message.expirationTime)
      throw new SignInMessageError("the message has expired (its Expiration Time has passed)");
    if (message.notBefore && now < message.notBefore)
      throw new SignInMessageError("the message is not valid yet (its Not Before time is still to come)");
    throw new SignInMessageError("the message's address or nonce is malformed");
  }
  if (message.statement !== SIGN_IN_STATEMENT && message.statement !== LEGACY_SIGN_IN_STATEMENT)
    throw new SignInMessageError(`the message's statement must be "${SIGN_IN_STATEMENT}"`);
  if (message.chainId !== SIGN_IN_CHAIN_ID)
    throw new SignInMessageError(`the message's Chain ID must be ${SIGN_IN_CHAIN_ID}`);
  const fids = (message.resources ?? []).flatMap((resource) => FID_RESOURCE.exec(resource)?.[1] ?? []);
  if (fids.length === 0)
    throw new SignInMessageError("the message names no fid: it needs a farcaster://fid/<fid> resource");
  if (fids.length > 1) throw new SignInMessageError("the message names more than one fid resource");
  const fid = Number(fids[0]);
  if (!Number.isSafeInteger(fid)) throw new SignInMessageError("the message's fid is out of range");
  return { message: message as ReadSignInMessage["message"], fid };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
