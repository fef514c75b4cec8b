import { ens_normalize } from "@adraffy/ens-normalize";
import type { HubError } from "../errors.js";
import { invalid } from "./errors.js";

/** The protocol's fname rule: 1–16 of a-z, 0-9 and "-", not starting with "-". */
const FNAME = /^[a-z0-9][a-z0-9-]{0,15}$/;

export function isValidFname(name: string): boolean {
  return FNAME.test(name);
}

export function validateFname(fname: string): HubError | undefined {
  if (fname.length === 0) return invalid("fname is missing");
  if (fname.length > 16) return invalid(`fname "${fname}" > 16 characters`);
  if (!FNAME.test(fname)) return invalid(`fname "${fname}" doesn't match ${FNAME}`);
  return undefined;
}

function normalises(name: string): boolean {
  try {
    ens_normalize(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * `<label>.eth` (ENS on L1) or `<label>.base.eth` (basename), where the label follows the fname rules
 * and the whole name is ENSIP-15 normalisable.
 */
export function validateEnsName(name: string): HubError | undefined {
  if (name.length === 0) return invalid("ensName is missing");
  if (!normalises(name)) return invalid(`ensName "${name}" is not a valid ENS name`);
  if (!name.endsWith(".eth")) return invalid(`ensName "${name}" doesn't end with .eth`);
  const labels = name.split(".");
  const basename = labels.length === 3 && labels[1] === "base";
  if (labels.length !== 2 && !basename) return invalid(`ensName "${name}" unsupported subdomain`);
  const limit = basename ? 25 : 20;
  if (name.length > limit) return invalid(`ensName "${name}" > ${limit} characters`);
  const label = labels[0]!;
  if (!FNAME.test(label)) return invalid(`ensName "${name}" doesn't match ${FNAME}`);
  return undefined;
}

export function utf8Name(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}
