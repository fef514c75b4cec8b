import { FrameActionBody, MessageType } from "../generated/message.js";
import { toBase64Json, toHexJson } from "../json/bytes.js";
import { renderCastId, type CastIdJson } from "../json/castId.js";
import { validateFrameActionBody } from "../validation/frameAction.js";
import type { BodyKind } from "./bodyKind.js";

export interface FrameActionBodyJson {
  url: string;
  buttonIndex: number;
  castId?: CastIdJson;
  inputText: string;
  state: string;
  transactionId: string;
  address: string;
}

function renderFrameAction(body: FrameActionBody): FrameActionBodyJson {
  const out = { url: toBase64Json(body.url), buttonIndex: body.buttonIndex } as FrameActionBodyJson;
  if (body.castId !== undefined) out.castId = renderCastId(body.castId);
  out.inputText = toBase64Json(body.inputText);
  out.state = toBase64Json(body.state);
  out.transactionId = toBase64Json(body.transactionId);
  out.address = toHexJson(body.address);
  return out;
}

export const frameAction = {
  field: "frameActionBody",
  fieldNumber: 16,
  types: [MessageType.FRAME_ACTION],
  validate: validateFrameActionBody,
  render: renderFrameAction,
  encode: FrameActionBody.encode,
} satisfies BodyKind<"frameActionBody", FrameActionBodyJson>;
