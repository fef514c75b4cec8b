import { MessageType, ReactionBody } from "../generated/message.js";
import { renderCastId, writeCastId, type CastIdJson } from "../json/castId.js";
import { REACTION_TYPE_NAMES, enumName } from "../json/enums.js";
import { enumJson } from "../json/jsonText.js";
import { validateReactionBody } from "../validation/reactionLink.js";
import type { BodyKind } from "./bodyKind.js";

export interface ReactionBodyJson {
  type: string | number;
  targetCastId?: CastIdJson;
  targetUrl?: string;
}

function renderReaction(body: ReactionBody): ReactionBodyJson {
  const out: ReactionBodyJson = { type: enumName(REACTION_TYPE_NAMES, body.type) };
  if (body.targetCastId !== undefined) out.targetCastId = renderCastId(body.targetCastId);
  if (body.targetUrl !== undefined) out.targetUrl = body.targetUrl;
  return out;
}

function writeReaction(body: ReactionBody): string {
  let out = '{"type":' + enumJson(REACTION_TYPE_NAMES, body.type);
  if (body.targetCastId !== undefined) out += ',"targetCastId":' + writeCastId(body.targetCastId);
  if (body.targetUrl !== undefined) out += ',"targetUrl":' + JSON.stringify(body.targetUrl);
  return out + "}";
}

export const reaction = {
  field: "reactionBody",
  fieldNumber: 7,
  types: [MessageType.REACTION_ADD, MessageType.REACTION_REMOVE],
  validate: validateReactionBody,
  render: renderReaction,
  write: writeReaction,
  encode: ReactionBody.encode,
} satisfies BodyKind<"reactionBody", ReactionBodyJson>;
