import type { Address, Hex, TypedDataDefinition } from "viem";
import { once } from "../../once.js";
import { isHex, toHex } from "../hex.js";
import { PROFILES, type NamingProfile } from "../naming.js";

/**
 * viem's EIP-712 hashing and key recovery, loaded when the first signature is checked: loading
 * viem's entry module costs a process about half a second of CPU, which a command or a worker that
 * never checks one (most of them) should not pay at start.
 */
const viem = once(() => import("viem"));

export type SignatureInput = Hex | Uint8Array;

export function signatureHex(signature: SignatureInput): Hex | undefined {
  if (signature instanceof Uint8Array) return toHex(signature);
  return isHex(signature) ? signature : undefined;
}

/** Profiles to try: the configured one first, since that is what our own clients sign under. */
export function profilesFrom(preferred: NamingProfile): NamingProfile[] {
  return [preferred, ...PROFILES.filter((p) => p.name !== preferred.name)];
}

/** Signer of an EIP-712 digest, or undefined for a signature that cannot be recovered. */
export async function recoverDigestSigner(
  digest: Hex,
  signature: SignatureInput,
): Promise<Address | undefined> {
  const hex = signatureHex(signature);
  // 65 bytes r‖s‖v; viem also accepts 64-byte compact (EIP-2098) signatures.
  if (hex === undefined || (hex.length !== 132 && hex.length !== 130)) return undefined;
  try {
    return await (await viem()).recoverAddress({ hash: digest, signature: hex });
  } catch {
    return undefined;
  }
}

/** Signer of EIP-712 typed data, or undefined for a signature that cannot be recovered. */
export async function recoverTypedDataSigner(
  typedData: TypedDataDefinition,
  signature: SignatureInput,
): Promise<Address | undefined> {
  return recoverDigestSigner((await viem()).hashTypedData(typedData), signature);
}

/**
 * Which profile's domain the signature was made under, trying `preferred` first. A client of
 * either ecosystem may have produced it; binary data is identical, only the domain name differs.
 */
export async function matchProfile(
  preferred: NamingProfile,
  build: (profile: NamingProfile) => TypedDataDefinition,
  signature: SignatureInput,
  expectedSigner: Address,
): Promise<NamingProfile | undefined> {
  const expected = expectedSigner.toLowerCase();
  for (const profile of profilesFrom(preferred)) {
    const signer = await recoverTypedDataSigner(build(profile), signature);
    if (signer !== undefined && signer.toLowerCase() === expected) return profile;
  }
  return undefined;
}
