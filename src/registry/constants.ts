import type { NamingProfile } from "../protocol/naming.js";

/** A request's timestamp may be this far from the server's clock, either way. */
export const TIMESTAMP_TOLERANCE_SECONDS = 600;

/** A non-admin may not move a name within 28 days of its last transfer. */
export const THROTTLE_SECONDS = 28 * 24 * 60 * 60;

// The reference's list (docs/reference/name-registry.md §3.5), less the four entries built from the brand
// word and the client app's brand name, which the naming profile does not carry (add it with
// `reservedNames`).
const RESERVED = `adidas amazon apple arbitrum barackobama bbc billgates binance bitcoin blockchain bmw cia cloud
cnn coinbase consensys context crypto data dell disney drake elonmusk ethereum f1 facebook fashion fbi fifa
finance fitness food fwb fwbdao gallery games ge gem gm gnosis gnosissafe google health hp hyperverse ibm intel
invest jpmorgan kraken kucoin lebronjames lionelmessi luxury messi metamask microsoft midjourney miniapp
miniapps mirror ml money nasa nba netflix news nfl nike nounsdao obsidian openai opensea optimism oracle ourzora
pga poap polygon privacy rainbow rarible ronaldo samsung sony starknet stripe sudoswap superrare sushiswap
syndicate tesla tezos travel twitter uber un uniswap urbit viamirror vitalik youtube zora zoraco`;

/** Names only admins may register: the reference list, with the brand-built entries from the naming profile. */
export function defaultReservedNames(naming: NamingProfile): string[] {
  const brand = naming.brand.toLowerCase();
  return [brand, `${brand}-client`, `${brand}-xyz`, `${brand}xyz`, ...RESERVED.split(/\s+/)];
}
