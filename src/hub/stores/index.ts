import type { MessageType } from "../../protocol/generated/message.js";
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

export { casts, links, reactions, userData, usernameProofs, verifications };
export type { StoreSpec } from "./spec.js";
