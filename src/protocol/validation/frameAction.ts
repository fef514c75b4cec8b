import type { HubError } from "../errors.js";
import type { FrameActionBody } from "../generated/message.js";
import { validateCastId } from "./common.js";
import { invalid } from "./errors.js";

/** Buttons 0..5 pass: the reference checks only the upper bound, whatever the schema comment says. */
export function validateFrameActionBody(body: FrameActionBody): HubError | undefined {
  if (body.buttonIndex > 5) return invalid("invalid button index");
  if (body.url.length === 0 || body.url.length > 1024) return invalid("invalid url");
  if (body.inputText.length > 256) return invalid("invalid input text");
  if (body.state.length > 4096) return invalid("invalid state");
  if (body.transactionId.length > 256) return invalid("invalid transaction ID");
  if (body.address.length > 64) return invalid("invalid address");
  if (body.castId !== undefined) return validateCastId(body.castId);
  return undefined;
}
