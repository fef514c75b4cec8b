/**
 * The single list of MessageData bodies. Validation, the hub's JSON and the reference encoding
 * loop over it or index into it; a body added to message.proto needs a module here and a line below.
 */
import type { BodyKind } from "./bodyKind.js";
import { castAdd } from "./castAdd.js";
import { castRemove } from "./castRemove.js";
import { frameAction } from "./frameAction.js";
import { keyAdd } from "./keyAdd.js";
import { keyRemove } from "./keyRemove.js";
import { lendStorage } from "./lendStorage.js";
import { link } from "./link.js";
import { linkCompactState } from "./linkCompactState.js";
import { reaction } from "./reaction.js";
import { userData } from "./userData.js";
import { usernameProof } from "./usernameProof.js";
import { verificationAdd } from "./verificationAdd.js";
import { verificationRemove } from "./verificationRemove.js";

// In message.proto's field order: the JSON's keys and the encoding's fields follow it.
const bodies = [
  castAdd,
  castRemove,
  reaction,
  verificationAdd,
  verificationRemove,
  userData,
  link,
  usernameProof,
  frameAction,
  linkCompactState,
  lendStorage,
  keyAdd,
  keyRemove,
] as const;

/** Each body's own type, from which the MessageData JSON type is built. */
export type BodyKinds = (typeof bodies)[number];

export const BODIES: readonly BodyKind[] = bodies;

export type { Body, BodyField, BodyKind } from "./bodyKind.js";
