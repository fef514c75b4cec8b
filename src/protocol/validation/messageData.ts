import { BODIES, type BodyKind } from "../bodies/index.js";
import { onlyBody } from "../bodies/onlyBody.js";
import type { HubError } from "../errors.js";
import { MessageType, type MessageData } from "../generated/message.js";
import { currentProtocolTime } from "../time.js";
import { validateFid } from "./common.js";
import { invalid, invalidParam } from "./errors.js";

const MAX_FUTURE_SECONDS = 600;

/**
 * The body each accepted message type carries. Other types (NONE aside) are `invalid message type`:
 * the reference hub refused the newer ones (gasless keys, channels) as they need state and rules
 * this hub does not implement.
 */
const BODY_BY_TYPE: (BodyKind | undefined)[] = [];
for (const kind of BODIES) for (const type of kind.types) BODY_BY_TYPE[type] = kind;

/**
 * Common MessageData rules then the body rules, in the reference's order. Verification-add bodies
 * are left to the caller: their Ethereum claim check is asynchronous.
 */
export function validateMessageData(data: MessageData, nowMs: number): HubError | undefined {
  const fidError = validateFid(data.fid);
  if (fidError !== undefined) return fidError;
  if (data.timestamp - currentProtocolTime(nowMs) > MAX_FUTURE_SECONDS) {
    return invalid("timestamp more than 10 mins in the future");
  }
  if (!(data.network >= 0 && data.network <= 3)) return invalid("invalid network");
  const kind = BODY_BY_TYPE[data.type];
  if (kind === undefined && data.type !== MessageType.NONE) return invalid("invalid message type");
  const only = onlyBody(data);
  if (only < 0) return invalid("only one body can be set");
  if (kind === undefined || BODIES[only] !== kind) return invalidParam("bodyType is invalid");
  return kind.validate?.(data[kind.field]!, data, nowMs);
}
