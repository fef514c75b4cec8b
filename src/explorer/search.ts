/**
 * GET /search?q=: where a fid, a name, a cast hash or an address is. Addresses and cast hashes are
 * both 20 bytes: a custody address is tried first. A cast is found by its hash, or the hash's
 * first digits, with one indexed hub read (GET /v1/castByHash), as long as the hub stores it.
 */
import { castPath, type HubMessage } from "./fragments.js";
import { type Sources, withQuery } from "./sources.js";

export async function searchTarget(sources: Sources, query: string): Promise<string | undefined> {
  const q = query.trim();
  if (/^\d{1,15}$/.test(q)) return `/fid/${Number(q)}`;
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) {
    const event = await sources.get<{ fid: number }>(
      "hub",
      withQuery("/v1/onChainIdRegistryEventByAddress", { address: q }),
      true,
    );
    if (event) return `/fid/${event.fid}`;
  }
  if (/^0x[0-9a-fA-F]{8,40}$/.test(q)) return castOf(sources, q.toLowerCase());
  const name = q.replace(/^@/, "").toLowerCase();
  if (/^[a-z0-9][a-z0-9.-]{0,30}$/.test(name)) {
    const found = await sources.get<{ transfers: unknown[] }>(
      "registry",
      withQuery("/transfers", { name }),
      true,
    );
    if (found && found.transfers.length > 0) return `/name/${name}`;
  }
  return undefined;
}

async function castOf(sources: Sources, hashPrefix: string): Promise<string | undefined> {
  const cast = await sources.get<HubMessage>("hub", withQuery("/v1/castByHash", { hash: hashPrefix }), true);
  return cast ? castPath({ fid: cast.data.fid, hash: cast.hash }) : undefined;
}
