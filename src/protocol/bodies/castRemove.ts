import { CastRemoveBody, MessageType } from "../generated/message.js";
import { toBase64Json } from "../json/bytes.js";
import { quoted } from "../json/jsonText.js";
import { validateCastRemoveBody } from "../validation/cast.js";
import type { BodyKind } from "./bodyKind.js";

export const castRemove = {
  field: "castRemoveBody",
  fieldNumber: 6,
  types: [MessageType.CAST_REMOVE],
  validate: validateCastRemoveBody,
  render: (body) => ({ targetHash: toBase64Json(body.targetHash) }),
  write: (body) => '{"targetHash":' + quoted(toBase64Json(body.targetHash)) + "}",
  encode: CastRemoveBody.encode,
} satisfies BodyKind<"castRemoveBody", { targetHash: string }>;
