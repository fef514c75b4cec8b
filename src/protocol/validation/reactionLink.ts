import type { HubError } from "../errors.js";
import {
  ReactionType,
  type LinkBody,
  type LinkCompactStateBody,
  type ReactionBody,
} from "../generated/message.js";
import { utf8Length, validateCastId, validateFid, validateUrl } from "./common.js";
import { invalid } from "./errors.js";

/**
 * Type NONE passes the reference library but the reference hub's store then rejects it
 * ("targetId provided without type"); refusing it here gives the same outcome with a clear reason.
 * It is checked last so that every message the library refuses gets the library's sentence.
 */
export function validateReactionBody(body: ReactionBody): HubError | undefined {
  const type = body.type;
  if (type !== ReactionType.NONE && type !== ReactionType.LIKE && type !== ReactionType.RECAST) {
    return invalid("invalid reaction type");
  }
  let targetError: HubError | undefined;
  if (body.targetCastId !== undefined) {
    targetError =
      body.targetUrl !== undefined
        ? invalid("cannot use both targetUrl and targetCastId")
        : validateCastId(body.targetCastId);
  } else if (body.targetUrl !== undefined) {
    targetError = validateUrl(body.targetUrl);
  } else {
    targetError = invalid("target is missing");
  }
  if (targetError !== undefined) return targetError;
  return type === ReactionType.NONE ? invalid("invalid reaction type") : undefined;
}

function validateLinkType(type: string): HubError | undefined {
  const length = utf8Length(type);
  if (length < 1 || length > 8) return invalid("type must be between 1-8 bytes");
  // castnet's one addition to the reference rule: link types are words, and a NUL (which the
  // reference passes) cannot be kept as text in PostgreSQL, so every engine refuses it alike.
  return type.includes("\0") ? invalid("type must not contain NUL characters") : undefined;
}

export function validateLinkBody(body: LinkBody): HubError | undefined {
  const typeError = validateLinkType(body.type);
  if (typeError !== undefined) return typeError;
  if (body.targetFid === undefined) return invalid("target is missing");
  return validateFid(body.targetFid);
}

export function validateLinkCompactStateBody(body: LinkCompactStateBody): HubError | undefined {
  const typeError = validateLinkType(body.type);
  if (typeError !== undefined) return typeError;
  for (const fid of body.targetFids) {
    const error = validateFid(fid);
    if (error !== undefined) return error;
  }
  return undefined;
}
