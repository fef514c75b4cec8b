import type { MessageData } from "../generated/message.js";
import { BODIES } from "./index.js";

const NO_BODY = -1;
export const SEVERAL_BODIES = -2;

const FIELDS: readonly string[] = BODIES.map((kind) => kind.field);

/**
 * The index in BODIES of the only body `data` carries, NO_BODY, or SEVERAL_BODIES (an invalid
 * message). A loop over the table costs about 0.2 µs per message more than tests written out by
 * hand (the keyed loads are megamorphic); that is noise beside a signature check, and it keeps the
 * table the only list of bodies.
 */
export function onlyBody(data: MessageData): number {
  const fields = data as unknown as Record<string, unknown>;
  let found = NO_BODY;
  for (let i = 0; i < FIELDS.length; i++) {
    if (fields[FIELDS[i]!] === undefined) continue;
    if (found !== NO_BODY) return SEVERAL_BODIES;
    found = i;
  }
  return found;
}
