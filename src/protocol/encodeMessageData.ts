/**
 * MessageData → bytes exactly as the reference client library encodes it. Its (older) ts-proto
 * writes packed repeated fields even when they are empty (`12 00` for no mentions), so a canonical
 * encoder produces different bytes, hence a different hash, for many casts. A message that arrives
 * without data_bytes was hashed over the sender's encoding, which in practice is this one.
 */
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import type { CastAddBody, LinkCompactStateBody } from "./generated/message.js";
import {
  CastId,
  CastRemoveBody,
  Embed,
  FrameActionBody,
  KeyAddBody,
  KeyRemoveBody,
  LendStorageBody,
  LinkBody,
  MessageData,
  ReactionBody,
  UserDataBody,
  VerificationAddAddressBody,
  VerificationRemoveBody,
} from "./generated/message.js";
import { UserNameProof } from "./generated/username_proof.js";

function writeCastAddBody(body: CastAddBody, writer: BinaryWriter): void {
  for (const url of body.embedsDeprecated) writer.uint32(10).string(url);
  writer.uint32(18).fork();
  for (const fid of body.mentions) writer.uint64(fid);
  writer.join();
  if (body.parentCastId !== undefined) CastId.encode(body.parentCastId, writer.uint32(26).fork()).join();
  if (body.parentUrl !== undefined) writer.uint32(58).string(body.parentUrl);
  if (body.text !== "") writer.uint32(34).string(body.text);
  writer.uint32(42).fork();
  for (const position of body.mentionsPositions) writer.uint32(position);
  writer.join();
  for (const embed of body.embeds) Embed.encode(embed, writer.uint32(50).fork()).join();
  if (body.type !== 0) writer.uint32(64).int32(body.type);
}

function writeLinkCompactStateBody(body: LinkCompactStateBody, writer: BinaryWriter): void {
  if (body.type !== "") writer.uint32(10).string(body.type);
  writer.uint32(18).fork();
  for (const fid of body.targetFids) writer.uint64(fid);
  writer.join();
}

function hasEmptyPackedField(data: MessageData): boolean {
  const cast = data.castAddBody;
  if (cast !== undefined && (cast.mentions.length === 0 || cast.mentionsPositions.length === 0)) return true;
  return data.linkCompactStateBody !== undefined && data.linkCompactStateBody.targetFids.length === 0;
}

/** The canonical encoding (empty repeated fields omitted), as the successor node computes it. */
export function encodeMessageDataCanonical(data: MessageData): Uint8Array {
  return MessageData.encode(data).finish();
}

export function encodeMessageData(data: MessageData): Uint8Array {
  if (!hasEmptyPackedField(data)) return MessageData.encode(data).finish();
  const writer = new BinaryWriter();
  if (data.type !== 0) writer.uint32(8).int32(data.type);
  if (data.fid !== 0) writer.uint32(16).uint64(data.fid);
  if (data.timestamp !== 0) writer.uint32(24).uint32(data.timestamp);
  if (data.network !== 0) writer.uint32(32).int32(data.network);
  if (data.castAddBody !== undefined) {
    writer.uint32(42).fork();
    writeCastAddBody(data.castAddBody, writer);
    writer.join();
  }
  if (data.castRemoveBody !== undefined)
    CastRemoveBody.encode(data.castRemoveBody, writer.uint32(50).fork()).join();
  if (data.reactionBody !== undefined)
    ReactionBody.encode(data.reactionBody, writer.uint32(58).fork()).join();
  if (data.verificationAddAddressBody !== undefined) {
    VerificationAddAddressBody.encode(data.verificationAddAddressBody, writer.uint32(74).fork()).join();
  }
  if (data.verificationRemoveBody !== undefined) {
    VerificationRemoveBody.encode(data.verificationRemoveBody, writer.uint32(82).fork()).join();
  }
  if (data.userDataBody !== undefined)
    UserDataBody.encode(data.userDataBody, writer.uint32(98).fork()).join();
  if (data.linkBody !== undefined) LinkBody.encode(data.linkBody, writer.uint32(114).fork()).join();
  if (data.usernameProofBody !== undefined) {
    UserNameProof.encode(data.usernameProofBody, writer.uint32(122).fork()).join();
  }
  if (data.frameActionBody !== undefined) {
    FrameActionBody.encode(data.frameActionBody, writer.uint32(130).fork()).join();
  }
  if (data.linkCompactStateBody !== undefined) {
    writer.uint32(138).fork();
    writeLinkCompactStateBody(data.linkCompactStateBody, writer);
    writer.join();
  }
  if (data.lendStorageBody !== undefined) {
    LendStorageBody.encode(data.lendStorageBody, writer.uint32(146).fork()).join();
  }
  if (data.keyAddBody !== undefined) KeyAddBody.encode(data.keyAddBody, writer.uint32(154).fork()).join();
  if (data.keyRemoveBody !== undefined)
    KeyRemoveBody.encode(data.keyRemoveBody, writer.uint32(162).fork()).join();
  return writer.finish();
}
