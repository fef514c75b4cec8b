/** CastId as the hub's JSON writes it wherever it appears (casts, embeds, reactions, frames). */
import type { CastId } from "../generated/message.js";
import { toHexJson } from "./bytes.js";
import { quoted } from "./jsonText.js";

export interface CastIdJson {
  fid: number;
  hash: string;
}

export function renderCastId(castId: CastId): CastIdJson {
  return { fid: castId.fid, hash: toHexJson(castId.hash) };
}

export function writeCastId(castId: CastId): string {
  return '{"fid":' + castId.fid + ',"hash":' + quoted(toHexJson(castId.hash)) + "}";
}
