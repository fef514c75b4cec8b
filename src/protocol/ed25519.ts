/**
 * Ed25519 through node:crypto (OpenSSL). Keys travel as raw 32-byte arrays; node wants KeyObjects,
 * and parsing one costs about as much as a third of a verify, so verification keys are cached.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";

// DER prefixes that turn a raw key into SPKI / PKCS#8 (RFC 8410); cheaper to parse than JWK.
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const CACHE_LIMIT = 10_000;
const publicKeys = new Map<string, KeyObject>();

export interface Ed25519KeyPair {
  /** 32-byte seed. */
  privateKey: Uint8Array;
  /** 32-byte public key. */
  publicKey: Uint8Array;
}

function cacheKey(publicKey: Uint8Array): string {
  return Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString("latin1");
}

/** Returns undefined when the bytes are not a valid Ed25519 point encoding. */
export function publicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  if (publicKey.length !== 32) return undefined;
  const id = cacheKey(publicKey);
  const cached = publicKeys.get(id);
  if (cached !== undefined) return cached;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
  } catch {
    return undefined;
  }
  // FIFO eviction keeps this O(1); hot signers get re-inserted on their next verify anyway.
  if (publicKeys.size >= CACHE_LIMIT) {
    const oldest = publicKeys.keys().next();
    if (oldest.done !== true) publicKeys.delete(oldest.value);
  }
  publicKeys.set(id, key);
  return key;
}

function privateKeyObject(privateKey: Uint8Array): KeyObject {
  if (privateKey.length !== 32) throw new RangeError("Ed25519 private key must be 32 bytes");
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, privateKey]), format: "der", type: "pkcs8" });
}

/** Never throws: malformed keys or signatures simply do not verify. */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  const key = publicKeyObject(publicKey);
  if (key === undefined) return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

export function signEd25519(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, privateKeyObject(privateKey)));
}

export function ed25519PublicKey(privateKey: Uint8Array): Uint8Array {
  const spki = createPublicKey(privateKeyObject(privateKey)).export({ format: "der", type: "spki" });
  return new Uint8Array(spki.subarray(SPKI_PREFIX.length));
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" });
  const spki = publicKey.export({ format: "der", type: "spki" });
  return {
    privateKey: new Uint8Array(pkcs8.subarray(PKCS8_PREFIX.length)),
    publicKey: new Uint8Array(spki.subarray(SPKI_PREFIX.length)),
  };
}
