/**
 * Enum names as the hub's JSON spells them (full proto names). Names containing the brand word come
 * from the naming profile; parsing accepts every profile's spelling.
 */
import { MessageType } from "../generated/message.js";
import { PROFILES, type NamingProfile } from "../naming.js";

type Names = readonly (string | undefined)[];

function table(entries: Record<number, string>): Names {
  const out: (string | undefined)[] = [];
  for (const [value, name] of Object.entries(entries)) out[Number(value)] = name;
  return out;
}

/** A numeric TypeScript enum's members (its generated names drop the proto prefix) with the prefix put back. */
function prefixed(members: Record<string, string | number>, prefix: string): Names {
  const out: (string | undefined)[] = [];
  for (const [name, value] of Object.entries(members))
    if (typeof value === "number") out[value] = prefix + name;
  return out;
}

export const HASH_SCHEME_NAMES = table({ 0: "HASH_SCHEME_NONE", 1: "HASH_SCHEME_BLAKE3" });
export const SIGNATURE_SCHEME_NAMES = table({
  0: "SIGNATURE_SCHEME_NONE",
  1: "SIGNATURE_SCHEME_ED25519",
  2: "SIGNATURE_SCHEME_EIP712",
});
/** From the generated enum, so that a type added to message.proto is named without an edit here. */
export const MESSAGE_TYPE_NAMES = prefixed(MessageType, "MESSAGE_TYPE_");
export const USER_DATA_TYPE_NAMES = table({
  0: "USER_DATA_TYPE_NONE",
  1: "USER_DATA_TYPE_PFP",
  2: "USER_DATA_TYPE_DISPLAY",
  3: "USER_DATA_TYPE_BIO",
  5: "USER_DATA_TYPE_URL",
  6: "USER_DATA_TYPE_USERNAME",
  7: "USER_DATA_TYPE_LOCATION",
  8: "USER_DATA_TYPE_TWITTER",
  9: "USER_DATA_TYPE_GITHUB",
  10: "USER_DATA_TYPE_BANNER",
  11: "USER_DATA_PRIMARY_ADDRESS_ETHEREUM",
  12: "USER_DATA_PRIMARY_ADDRESS_SOLANA",
  13: "USER_DATA_TYPE_PROFILE_TOKEN",
  14: "USER_DATA_TYPE_LIVE_AT",
});
export const CAST_TYPE_NAMES = table({ 0: "CAST", 1: "LONG_CAST", 2: "TEN_K_CAST" });
export const REACTION_TYPE_NAMES = table({
  0: "REACTION_TYPE_NONE",
  1: "REACTION_TYPE_LIKE",
  2: "REACTION_TYPE_RECAST",
});
/**
 * The successor node's spelling of reaction types in query parameters: its enum's variant names,
 * matched exactly ("like" is not one). Never written, only read.
 */
export const REACTION_TYPE_SHORT_NAMES = table({ 1: "Like", 2: "Recast" });
export const PROTOCOL_NAMES = table({ 0: "PROTOCOL_ETHEREUM", 1: "PROTOCOL_SOLANA" });
export const STORAGE_UNIT_TYPE_NAMES = table({
  0: "UNIT_TYPE_LEGACY",
  1: "UNIT_TYPE_2024",
  2: "UNIT_TYPE_2025",
});
export const ON_CHAIN_EVENT_TYPE_NAMES = table({
  0: "EVENT_TYPE_NONE",
  1: "EVENT_TYPE_SIGNER",
  2: "EVENT_TYPE_SIGNER_MIGRATED",
  3: "EVENT_TYPE_ID_REGISTER",
  4: "EVENT_TYPE_STORAGE_RENT",
  5: "EVENT_TYPE_TIER_PURCHASE",
});
export const SIGNER_EVENT_TYPE_NAMES = table({
  0: "SIGNER_EVENT_TYPE_NONE",
  1: "SIGNER_EVENT_TYPE_ADD",
  2: "SIGNER_EVENT_TYPE_REMOVE",
  3: "SIGNER_EVENT_TYPE_ADMIN_RESET",
});
export const ID_REGISTER_EVENT_TYPE_NAMES = table({
  0: "ID_REGISTER_EVENT_TYPE_NONE",
  1: "ID_REGISTER_EVENT_TYPE_REGISTER",
  2: "ID_REGISTER_EVENT_TYPE_TRANSFER",
  3: "ID_REGISTER_EVENT_TYPE_CHANGE_RECOVERY",
});
export const TIER_TYPE_NAMES = table({ 0: "None", 1: "Pro" });
export const HUB_EVENT_TYPE_NAMES = table({
  0: "HUB_EVENT_TYPE_NONE",
  1: "HUB_EVENT_TYPE_MERGE_MESSAGE",
  2: "HUB_EVENT_TYPE_PRUNE_MESSAGE",
  3: "HUB_EVENT_TYPE_REVOKE_MESSAGE",
  6: "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF",
  9: "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT",
  10: "HUB_EVENT_TYPE_MERGE_FAILURE",
  11: "HUB_EVENT_TYPE_BLOCK_CONFIRMED",
});

/** Per-profile tables for the enums whose names contain the brand word. */
export interface ProfileNames {
  network: Names;
  userNameType: Names;
}

const NETWORK_SUFFIXES = ["NONE", "MAINNET", "TESTNET", "DEVNET"] as const;
const byProfile = new WeakMap<NamingProfile, ProfileNames>();

export function profileNames(profile: NamingProfile): ProfileNames {
  let names = byProfile.get(profile);
  if (names === undefined) {
    names = {
      network: NETWORK_SUFFIXES.map((suffix) => `${profile.networkWord}_NETWORK_${suffix}`),
      userNameType: table({
        0: "USERNAME_TYPE_NONE",
        1: "USERNAME_TYPE_FNAME",
        2: profile.nameServiceL1,
        3: "USERNAME_TYPE_BASENAME",
      }),
    };
    byProfile.set(profile, names);
  }
  return names;
}

/** The reference serialiser throws on numbers it has no name for; we keep the number instead. */
export function enumName(names: Names, value: number): string | number {
  return names[value] ?? value;
}

/** Parses a JSON enum given by name (under any profile's spelling) or by number. */
export function enumValue(candidates: readonly Names[], value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  for (const names of candidates) {
    const index = names.indexOf(value);
    if (index >= 0) return index;
  }
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

export function allUserNameTypeNames(): Names[] {
  return PROFILES.map((p) => profileNames(p).userNameType);
}
