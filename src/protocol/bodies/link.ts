import { LinkBody, MessageType } from "../generated/message.js";
import { validateLinkBody } from "../validation/reactionLink.js";
import type { BodyKind } from "./bodyKind.js";

export interface LinkBodyJson {
  type: string;
  displayTimestamp?: number;
  targetFid?: number;
}

function renderLink(body: LinkBody): LinkBodyJson {
  const out: LinkBodyJson = { type: body.type };
  if (body.displayTimestamp !== undefined) out.displayTimestamp = body.displayTimestamp;
  if (body.targetFid !== undefined) out.targetFid = body.targetFid;
  return out;
}

function writeLink(body: LinkBody): string {
  let out = '{"type":' + JSON.stringify(body.type);
  if (body.displayTimestamp !== undefined) out += ',"displayTimestamp":' + body.displayTimestamp;
  if (body.targetFid !== undefined) out += ',"targetFid":' + body.targetFid;
  return out + "}";
}

export const link = {
  field: "linkBody",
  fieldNumber: 14,
  types: [MessageType.LINK_ADD, MessageType.LINK_REMOVE],
  validate: validateLinkBody,
  render: renderLink,
  write: writeLink,
  encode: LinkBody.encode,
} satisfies BodyKind<"linkBody", LinkBodyJson>;
