import type { BinaryWriter } from "@bufbuild/protobuf/wire";
import { MessageType, type LinkCompactStateBody } from "../generated/message.js";
import { validateLinkCompactStateBody } from "../validation/reactionLink.js";
import type { BodyKind } from "./bodyKind.js";

export interface LinkCompactStateBodyJson {
  type: string;
  targetFids: number[];
}

/** The generated encoder's, except that `targetFids` is written even when empty. */
function encodeLinkCompactState(body: LinkCompactStateBody, writer: BinaryWriter): void {
  if (body.type !== "") writer.uint32(10).string(body.type);
  writer.uint32(18).fork();
  for (const fid of body.targetFids) writer.uint64(fid);
  writer.join();
}

export const linkCompactState = {
  field: "linkCompactStateBody",
  fieldNumber: 17,
  types: [MessageType.LINK_COMPACT_STATE],
  validate: validateLinkCompactStateBody,
  render: (body) => ({ type: body.type, targetFids: body.targetFids.slice() }),
  encode: encodeLinkCompactState,
  writesEmptyPacked: (body) => body.targetFids.length === 0,
} satisfies BodyKind<"linkCompactStateBody", LinkCompactStateBodyJson>;
