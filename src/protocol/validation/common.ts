import type { HubError } from "../errors.js";
import type { CastId } from "../generated/message.js";
import { invalid, invalidParam } from "./errors.js";

export function utf8Length(text: string): number {
  // Pure ASCII (the common case) needs no scan through the encoder.
  return Buffer.byteLength(text, "utf8");
}

/** The reference's sentence for a bad fid, or undefined when it is fine. */
export function fidProblem(fid: number): string | undefined {
  if (fid === 0 || fid === undefined) return "fid is missing";
  if (typeof fid !== "number" || !Number.isInteger(fid)) return "fid must be an integer";
  if (fid < 0) return "fid must be positive";
  return undefined;
}

export function validateFid(fid: number): HubError | undefined {
  const problem = fidProblem(fid);
  return problem === undefined ? undefined : invalid(problem);
}

function hashProblem(hash: Uint8Array | undefined): string | undefined {
  if (hash === undefined || hash.length === 0) return "hash is missing";
  if (hash.length !== 20) return "hash must be 20 bytes";
  return undefined;
}

/** 20-byte message hashes (cast ids, cast removes). */
export function validateMessageHash(hash: Uint8Array | undefined): HubError | undefined {
  const problem = hashProblem(hash);
  return problem === undefined ? undefined : invalid(problem);
}

/** The reference reports both halves of a bad cast id at once, joined by ", ". */
export function validateCastId(castId: CastId): HubError | undefined {
  const fid = fidProblem(castId.fid);
  const hash = hashProblem(castId.hash);
  if (fid === undefined && hash === undefined) return undefined;
  return invalid(fid !== undefined && hash !== undefined ? `${fid}, ${hash}` : (fid ?? hash)!);
}

export function validateUrl(url: string): HubError | undefined {
  const length = utf8Length(url);
  if (length < 1) return invalidParam("url < 1 byte");
  if (length > 256) return invalidParam("url > 256 bytes");
  return undefined;
}
