/**
 * Ed25519. Verification goes through libsodium (sodium-native, whose prebuilt addon ships in its
 * npm package): it is strict, as the reference hubs are, refusing small-order keys and signature
 * points and non-canonical encodings (OpenSSL accepts a signature of the identity point under the
 * identity key for every message), and it takes about half the CPU of node:crypto's verify. Keys
 * travel as raw 32-byte arrays; signing and key generation stay with node:crypto.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { createRequire } from "node:module";

interface Sodium {
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

const sodium = createRequire(import.meta.url)("sodium-native") as Sodium;

// DER prefixes that turn a raw key into SPKI / PKCS#8 (RFC 8410); cheaper to parse than JWK.
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export interface Ed25519KeyPair {
  /** 32-byte seed. */
  privateKey: Uint8Array;
  /** 32-byte public key. */
  publicKey: Uint8Array;
}

function privateKeyObject(privateKey: Uint8Array): KeyObject {
  if (privateKey.length !== 32) throw new RangeError("Ed25519 private key must be 32 bytes");
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, privateKey]), format: "der", type: "pkcs8" });
}

/** Never throws: malformed keys or signatures simply do not verify. */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  return sodium.crypto_sign_verify_detached(signature, message, publicKey);
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
