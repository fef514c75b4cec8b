/** Messages signed with an account's Ed25519 signer and submitted to the hub, as any app does. */
import type { MessageData, MessageType } from "../protocol/generated/message.js";
import { fromHex } from "../protocol/hex.js";
import { encodeMessage, signMessageData } from "../protocol/message.js";
import { currentProtocolTime } from "../protocol/time.js";
import type { Context } from "./context.js";
import type { HubMessage } from "./http/hub.js";
import type { StoredAccount } from "../wallet/keystore.js";
import { UsageError } from "../usageError.js";

type Body = Omit<MessageData, "type" | "fid" | "timestamp" | "network">;

/** Who signs a message: a fid and the Ed25519 key that signs for it (an account's, or a requested key). */
export interface Signer {
  name: string;
  account: Pick<StoredAccount, "fid" | "signerPrivateKey">;
}

export async function submit(
  context: Context,
  actor: Signer,
  type: MessageType,
  body: Body,
  /** Unix ms the message is dated; now unless given. */
  at?: number,
): Promise<HubMessage> {
  const key = actor.account.signerPrivateKey;
  if (key === undefined)
    throw new UsageError(
      `account "${actor.name}" has no signer key: add one with castnet signer add --as ${actor.name}`,
    );
  const data: MessageData = {
    type,
    fid: actor.account.fid,
    timestamp: currentProtocolTime(at),
    network: context.network,
    ...body,
  };
  return context.hub.submitMessage(encodeMessage(signMessageData(data, fromHex(key))));
}
