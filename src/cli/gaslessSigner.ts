/**
 * `castnet signer add --gasless`: a key added to the account's fid by a KEY_ADD message its custody
 * address signs (docs/reference/gasless-signers.md), as an app following the successor node's guide
 * adds one, instead of a KeyRegistry transaction.
 */
import { privateKeyToAccount } from "viem/accounts";
import { generateEd25519KeyPair } from "../protocol/ed25519.js";
import { buildKeyAddBody } from "../protocol/gaslessKeyBodies.js";
import { MessageType } from "../protocol/generated/message.js";
import { toHex } from "../protocol/hex.js";
import { encodeMessage, signMessageData } from "../protocol/message.js";
import { NEUTRAL } from "../protocol/naming.js";
import { currentProtocolTime } from "../protocol/time.js";
import { ADMISSIBLE_KEY_SCOPES, MAX_KEY_TTL_SECONDS } from "../protocol/validation/index.js";
import { UsageError } from "../usageError.js";
import type { StoredAccount } from "../wallet/keystore.js";
import type { Context } from "./context.js";

/** How long the custody's authorisation may wait to be merged. */
const DEADLINE_SECONDS = 3600;

/** `cast-add,reaction_add,LINK_ADD` → MessageType numbers: each an admissible scope, by name. */
export function parseScopes(list: string): MessageType[] {
  const scopes = list.split(",").map((name) => {
    const key = name
      .trim()
      .toUpperCase()
      .replaceAll("-", "_")
      .replace(/^MESSAGE_TYPE_/, "");
    const type = MessageType[key as keyof typeof MessageType];
    if (typeof type !== "number" || !ADMISSIBLE_KEY_SCOPES.has(type)) {
      const names = [...ADMISSIBLE_KEY_SCOPES].map((t) => MessageType[t].toLowerCase().replaceAll("_", "-"));
      throw new UsageError(`"${name}" is not a scope a key may have; the scopes are ${names.join(", ")}`);
    }
    return type;
  });
  return [...new Set(scopes)];
}

export interface GaslessSignerRequest {
  account: StoredAccount;
  /** The app requesting the key: its fid is recorded with the key, its custody signs the request. */
  app: StoredAccount;
  scopes: readonly MessageType[];
  ttl: number;
}

export interface AddedGaslessSigner {
  publicKey: `0x${string}`;
  privateKey: `0x${string}`;
  nonce: number;
}

export async function addGaslessSigner(
  context: Context,
  request: GaslessSignerRequest,
): Promise<AddedGaslessSigner> {
  if (request.ttl < 1 || request.ttl > MAX_KEY_TTL_SECONDS) {
    throw new UsageError(`--ttl must be from 1 to ${MAX_KEY_TTL_SECONDS} seconds`);
  }
  const { account, app } = request;
  const nonce = (await context.hub.signersByFid(account.fid)).currentUserNonce + 1;
  const keyPair = generateEd25519KeyPair();
  const timestamp = currentProtocolTime();
  const body = await buildKeyAddBody(
    {
      fid: account.fid,
      key: keyPair.publicKey,
      scopes: request.scopes,
      ttl: request.ttl,
      nonce,
      deadline: timestamp + DEADLINE_SECONDS,
      requestFid: app.fid,
    },
    privateKeyToAccount(account.custodyPrivateKey),
    NEUTRAL,
    privateKeyToAccount(app.custodyPrivateKey),
  );
  const data = {
    type: MessageType.KEY_ADD,
    fid: account.fid,
    timestamp,
    network: context.network,
    keyAddBody: body,
  };
  await context.hub.submitMessage(encodeMessage(signMessageData(data, keyPair.privateKey)));
  return { publicKey: toHex(keyPair.publicKey), privateKey: toHex(keyPair.privateKey), nonce };
}
