import { MessageType } from "../../protocol/generated/message.js";
import { StoreType } from "../keys.js";
import { casts } from "./casts.js";
import { links } from "./links.js";
import { reactions } from "./reactions.js";
import type { StoreSpec } from "./spec.js";
import { userData } from "./userData.js";
import { usernameProofs } from "./usernameProofs.js";
import { verifications } from "./verifications.js";

const BY_TYPE = new Map<number, StoreSpec>();
for (const spec of [casts, reactions, links, userData, verifications, usernameProofs]) {
  BY_TYPE.set(spec.addType, spec);
  if (spec.removeType !== undefined) BY_TYPE.set(spec.removeType, spec);
}

/** The store a message type is kept in; undefined for types that are never stored (frame actions). */
export function storeFor(type: MessageType): StoreSpec | undefined {
  return BY_TYPE.get(type);
}

/**
 * The store a message of this type is kept in, or undefined for types never stored (frame actions).
 * Link compact states live in the links store without being one of its set members.
 */
export function storeTypeOf(type: MessageType): StoreType | undefined {
  return type === MessageType.LINK_COMPACT_STATE ? StoreType.LINKS : BY_TYPE.get(type)?.store;
}

export { casts, links, reactions, userData, usernameProofs, verifications };
export type { StoreSpec } from "./spec.js";
