/**
 * The naming profile: the one place where the ecosystem's brand words live.
 *
 * SPEC writes brand words neutrally; those are castnet's default output. An operator who wants to
 * interoperate with the reference client libraries switches to the reference spellings. Input always
 * accepts both, and binary protobuf is the same under either profile.
 */
export type NamingProfileName = "neutral" | "reference";

export interface NamingProfile {
  readonly name: NamingProfileName;
  /** Capitalised word that starts EIP-712 domain names ("Service name verification"). */
  readonly brand: string;
  /** Upper-case word inside the network enum names (`SOCIAL_NETWORK_MAINNET`). */
  readonly networkWord: string;
  /** Name of UserNameType 2, the layer-1 name service (`USERNAME_TYPE_NAMESERVICE_L1`). */
  readonly nameServiceL1: string;
  /** Scheme of signed-key-request deep links (`service://signed-key-request?token=…`). */
  readonly deeplinkScheme: string;
}

export const NEUTRAL: NamingProfile = {
  name: "neutral",
  brand: "Service",
  networkWord: "SOCIAL",
  nameServiceL1: "USERNAME_TYPE_NAMESERVICE_L1",
  deeplinkScheme: "service",
};

export const REFERENCE: NamingProfile = {
  name: "reference",
  brand: "Farcaster",
  networkWord: "FARCASTER",
  nameServiceL1: "USERNAME_TYPE_ENS_L1",
  deeplinkScheme: "farcaster",
};

export const PROFILES: readonly NamingProfile[] = [NEUTRAL, REFERENCE];

export function namingProfile(name: NamingProfileName): NamingProfile {
  return name === "reference" ? REFERENCE : NEUTRAL;
}

/** EIP-712 domain name under a profile, e.g. `domainName(p, "KeyGateway")` = "Service KeyGateway". */
export function domainName(profile: NamingProfile, suffix: string): string {
  return `${profile.brand} ${suffix}`;
}
