/**
 * What an account does at the registry and the hub, each as a third-party client does it: the
 * building blocks the everyday commands and the demo seed share.
 */
import type { Hex, LocalAccount } from "viem";
import type { SignedKeyRequest } from "../sdk/index.js";
import { generateEd25519KeyPair } from "../protocol/ed25519.js";
// Each from its own module: the eip712 index also loads what pulls in all of viem (ABI coding).
import {
  RECOMMENDED_SIGNED_KEY_REQUEST_VALIDITY_SECONDS,
  signSignedKeyRequest,
} from "../protocol/eip712/signedKeyRequest.js";
import { signUsernameProof } from "../protocol/eip712/usernameProof.js";
import { signVerificationClaim } from "../protocol/eip712/verificationClaim.js";
import {
  CastType,
  MessageType,
  Protocol,
  ReactionType,
  StorageUnitType,
  UserDataType,
} from "../protocol/generated/message.js";
import { fromHex, toHex } from "../protocol/hex.js";
import { NEUTRAL } from "../protocol/naming.js";
import type { Context } from "./context.js";
import type { HubMessage } from "./http/hub.js";
import { CliError, request } from "./http/request.js";
import type { Transfer } from "../sdk/index.js";
import type { StoredAccount } from "../wallet/keystore.js";
import { type Signer, submit } from "./messages.js";
import { type CastTarget, type MentionedText, mention } from "./targets.js";

export type Actor = { name: string; account: StoredAccount };

const HUB_WAIT_MS = 20_000;

/** The account of a custody or wallet key, loading viem's accounts only for the writes that sign with one. */
async function ethereumAccount(key: Hex): Promise<LocalAccount> {
  const { privateKeyToAccount } = await import("viem/accounts");
  return privateKeyToAccount(key);
}

/** The hub follows the registry; a USERNAME is accepted only once the hub holds the name's proof. */
async function untilHubHolds(context: Context, name: string, fid: number): Promise<void> {
  const deadline = Date.now() + HUB_WAIT_MS;
  while ((await context.hub.userNameProofByName(name))?.fid !== fid) {
    if (Date.now() > deadline)
      throw new CliError(`the hub at ${context.hub.base} has not seen the registration of ${name} yet`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Claims `name` at the registry for the actor (EIP-712, custody-signed) and makes it the username. */
export async function registerName(
  context: Context,
  actor: Actor,
  name: string,
): Promise<{ transfer: Transfer; message: HubMessage }> {
  const custody = await ethereumAccount(actor.account.custodyPrivateKey);
  const timestamp = await context.registry.currentTime();
  const signature = await signUsernameProof(custody, NEUTRAL, { name, timestamp, owner: custody.address });
  const transfer = await context.registry.transfer({
    name,
    from: 0,
    to: actor.account.fid,
    fid: actor.account.fid,
    owner: custody.address,
    timestamp,
    signature,
  });
  return { transfer, message: await setUsername(context, actor, name) };
}

/** The USERNAME user data, once the hub holds the proof that the actor holds `name`. */
export async function setUsername(context: Context, actor: Signer, name: string): Promise<HubMessage> {
  await untilHubHolds(context, name, actor.account.fid);
  return setUserData(context, actor, UserDataType.USERNAME, name);
}

export function setUserData(
  context: Context,
  actor: Signer,
  type: UserDataType,
  value: string,
): Promise<HubMessage> {
  return submit(context, actor, MessageType.USER_DATA_ADD, { userDataBody: { type, value } });
}

export interface CastSpec {
  text: string;
  /** Who each `@<who>` in the text stands for: a fid, a registered name or an account. */
  mentions?: readonly string[];
  replyTo?: CastTarget;
  /** The channel's URL (the cast's parent URL). */
  channel?: string;
  embeds?: readonly string[];
  /** Unix ms the cast is dated; now unless given. */
  at?: number;
}

export async function postCast(
  context: Context,
  actor: Signer,
  spec: CastSpec,
): Promise<{ message: HubMessage; body: MentionedText }> {
  const body = await mention(context, spec.text, spec.mentions ?? []);
  const message = await submit(
    context,
    actor,
    MessageType.CAST_ADD,
    {
      castAddBody: {
        ...body,
        embedsDeprecated: [],
        embeds: (spec.embeds ?? []).map((url) => ({ url })),
        parentCastId: spec.replyTo && { fid: spec.replyTo.fid, hash: fromHex(spec.replyTo.hash) },
        parentUrl: spec.channel,
        type: CastType.CAST,
      },
    },
    spec.at,
  );
  return { message, body };
}

export const REACTIONS = { like: ReactionType.LIKE, recast: ReactionType.RECAST } as const;

/** A like or recast of a cast, or of a URL (a page, a channel). */
export function react(
  context: Context,
  actor: Signer,
  kind: keyof typeof REACTIONS,
  target: CastTarget | string,
  remove = false,
): Promise<HubMessage> {
  return submit(context, actor, remove ? MessageType.REACTION_REMOVE : MessageType.REACTION_ADD, {
    reactionBody:
      typeof target === "string"
        ? { type: REACTIONS[kind], targetUrl: target }
        : { type: REACTIONS[kind], targetCastId: { fid: target.fid, hash: fromHex(target.hash) } },
  });
}

export function follow(
  context: Context,
  actor: Signer,
  targetFid: number,
  remove = false,
): Promise<HubMessage> {
  return submit(context, actor, remove ? MessageType.LINK_REMOVE : MessageType.LINK_ADD, {
    linkBody: { type: "follow", targetFid },
  });
}

/** Storage unit types by the word the CLI and the demo take for them. */
export const UNIT_TYPES = {
  legacy: StorageUnitType.UNIT_TYPE_LEGACY,
  "2024": StorageUnitType.UNIT_TYPE_2024,
  "2025": StorageUnitType.UNIT_TYPE_2025,
} as const;

/** Lends `units` units of a cohort to `toFid`, replacing the actor's loan to it; 0 takes them back. */
export function lendStorage(
  context: Context,
  actor: Signer,
  toFid: number,
  units: number,
  unitType: keyof typeof UNIT_TYPES,
): Promise<HubMessage> {
  return submit(context, actor, MessageType.LEND_STORAGE, {
    lendStorageBody: { toFid, numUnits: units, unitType: UNIT_TYPES[unitType] },
  });
}

/** Verifies the address of `key` for the actor; the claim names the devchain's latest block. */
export async function verifyAddress(
  context: Context,
  actor: Signer,
  key: Hex,
): Promise<{ address: Hex; message: HubMessage }> {
  const wallet = await ethereumAccount(key);
  const block = await request<{ hash: Hex }>("devchain", context.chainBase, "/v1/blocks/latest");
  const claim = {
    fid: actor.account.fid,
    address: wallet.address,
    blockHash: block.hash,
    network: context.network,
  };
  const claimSignature = await signVerificationClaim(wallet, NEUTRAL, claim);
  const message = await submit(context, actor, MessageType.VERIFICATION_ADD_ETH_ADDRESS, {
    verificationAddAddressBody: {
      address: fromHex(wallet.address),
      claimSignature: fromHex(claimSignature),
      blockHash: fromHex(block.hash),
      verificationType: 0,
      chainId: 0,
      protocol: Protocol.ETHEREUM,
    },
  });
  return { address: wallet.address, message };
}

/**
 * As the app `appName` (an account of the keystore): asks the client API for a fresh key to sign for
 * a user, keeping the key in the keystore under the request's token.
 */
export async function requestKey(
  context: Context,
  appName: string,
  redirectUrl?: string,
): Promise<SignedKeyRequest> {
  const app = context.keystore().get(appName);
  const key = generateEd25519KeyPair();
  const publicKey = toHex(key.publicKey);
  const deadline = Math.floor(Date.now() / 1000) + RECOMMENDED_SIGNED_KEY_REQUEST_VALIDITY_SECONDS;
  const custody = await ethereumAccount(app.custodyPrivateKey);
  const signature = await signSignedKeyRequest(custody, NEUTRAL, {
    requestFid: app.fid,
    key: publicKey,
    deadline,
  });
  const { signedKeyRequest } = await context.api.createKeyRequest({
    key: publicKey,
    requestFid: app.fid,
    deadline,
    signature,
    ...(redirectUrl === undefined ? {} : { redirectUrl }),
  });
  context.keystore().keepRequestedKey(signedKeyRequest.token, {
    app: appName,
    publicKey,
    privateKey: toHex(key.privateKey),
  });
  return signedKeyRequest;
}
