/** Every store, and the lookups from a message type or a store type to its spec. */
import type { MessageType } from "../../../protocol/generated/message.js";
import type { StoreType } from "../../data/keys.js";
import { casts } from "./casts.js";
import { links } from "./links.js";
import { reactions } from "./reactions.js";
import type { StoreSpec } from "./spec.js";
import { storageLends } from "./storageLends.js";
import { userData } from "./userData.js";
import { usernameProofs } from "./usernameProofs.js";
import { verifications } from "./verifications.js";

export const STORES: readonly StoreSpec[] = [
  casts,
  reactions,
  links,
  userData,
  verifications,
  usernameProofs,
  storageLends,
];

const BY_TYPE = new Map<number, StoreSpec>();
for (const spec of STORES) {
  BY_TYPE.set(spec.addType, spec);
  if (spec.removeType !== undefined) BY_TYPE.set(spec.removeType, spec);
  for (const extra of spec.extraTypes ?? []) BY_TYPE.set(extra.type, spec);
}

const BY_STORE = new Map<number, StoreSpec>(STORES.map((spec) => [spec.store, spec]));

/** The store a message type is kept in; undefined for types that are never stored (frame actions). */
export function storeFor(type: MessageType): StoreSpec | undefined {
  return BY_TYPE.get(type);
}

/** The number of the store a message of this type is kept in, or undefined for types never stored. */
export function storeTypeOf(type: MessageType): StoreType | undefined {
  return BY_TYPE.get(type)?.store;
}

export function specOf(store: StoreType): StoreSpec {
  return BY_STORE.get(store)!;
}

/** True for the adds and removes of a store's set, false for what it keeps beside it. */
export function isSetMember(spec: StoreSpec, type: number): boolean {
  return type === spec.addType || type === spec.removeType;
}

export type { StoreSpec } from "./spec.js";
