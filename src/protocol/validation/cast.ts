import type { HubError } from "../errors.js";
import { CastType, type CastAddBody, type CastRemoveBody } from "../generated/message.js";
import { utf8Length, validateCastId, validateFid, validateMessageHash, validateUrl } from "./common.js";
import { invalid } from "./errors.js";

/** 2023-05-03 UTC in protocol seconds: string embeds were only accepted before this. */
const STRING_EMBEDS_CUTOFF = 73612800;
const MAX_EMBEDS = 4;
const MAX_MENTIONS = 10;

function validateTextLength(type: CastType, bytes: number): HubError | undefined {
  switch (type) {
    case CastType.CAST:
      return bytes > 320 ? invalid("text > 320 bytes") : undefined;
    case CastType.LONG_CAST:
      if (bytes > 1024) return invalid("text > 1024 bytes for long cast");
      return bytes <= 320 ? invalid("text too short for long cast") : undefined;
    case CastType.TEN_K_CAST:
      if (bytes > 10_000) return invalid("text > 10,000 bytes for 10k cast");
      return bytes <= 1024 ? invalid("text too short for 10k cast") : undefined;
    default:
      return invalid("invalid cast type");
  }
}

export function validateCastAddBody(body: CastAddBody, timestamp: number): HubError | undefined {
  const text = body.text;
  if (typeof text !== "string") return invalid("text is missing");
  const textBytes = utf8Length(text);
  const lengthError = validateTextLength(body.type, textBytes);
  if (lengthError !== undefined) return lengthError;

  // Counts and combinations first, then each element, in the reference library's order.
  const embeds = body.embeds;
  const stringEmbeds = body.embedsDeprecated;
  if (embeds.length > MAX_EMBEDS) return invalid(`embeds > ${MAX_EMBEDS}`);
  if (stringEmbeds.length > 0) {
    if (timestamp >= STRING_EMBEDS_CUTOFF) return invalid("string embeds have been deprecated");
    if (stringEmbeds.length > 2) return invalid("string embeds > 2");
    if (embeds.length > 0) return invalid("cannot use both embeds and string embeds");
  }
  const mentions = body.mentions;
  const positions = body.mentionsPositions;
  if (mentions.length > MAX_MENTIONS) return invalid(`mentions > ${MAX_MENTIONS}`);
  if (mentions.length !== positions.length) return invalid("mentions and mentionsPositions must match");
  if (body.parentCastId !== undefined && body.parentUrl !== undefined) {
    return invalid("cannot use both parentUrl and parentCastId");
  }
  if (textBytes === 0 && embeds.length === 0 && stringEmbeds.length === 0 && mentions.length === 0) {
    return invalid("cast is empty");
  }

  for (const url of stringEmbeds) {
    const error = validateUrl(url);
    if (error !== undefined) return error;
  }
  for (const embed of embeds) {
    if (embed.url !== undefined) {
      if (embed.castId !== undefined) return invalid("cannot use both url and castId");
      const error = validateUrl(embed.url);
      if (error !== undefined) return error;
    } else if (embed.castId !== undefined) {
      const error = validateCastId(embed.castId);
      if (error !== undefined) return error;
    } else {
      return invalid("embed must have either url or castId");
    }
  }
  let previous = 0;
  for (let i = 0; i < mentions.length; i++) {
    const fidError = validateFid(mentions[i]!);
    if (fidError !== undefined) return fidError;
    const position = positions[i]!;
    if (!Number.isInteger(position)) return invalid("mentionsPositions must be integers");
    // Equal neighbours are allowed: the reference compares with <, not <=.
    if (position < 0 || position > textBytes) return invalid("mentionsPositions must be a position in text");
    if (position < previous) return invalid("mentionsPositions must be sorted in ascending order");
    previous = position;
  }
  if (body.parentCastId !== undefined) {
    const error = validateCastId(body.parentCastId);
    if (error !== undefined) return error;
  } else if (body.parentUrl !== undefined) {
    const error = validateUrl(body.parentUrl);
    if (error !== undefined) return error;
  }

  return undefined;
}

export function validateCastRemoveBody(body: CastRemoveBody): HubError | undefined {
  return validateMessageHash(body.targetHash);
}
