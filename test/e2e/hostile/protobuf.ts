/**
 * Protobuf by hand: well-formed, malformed and properly signed messages, byte by byte, so that the
 * sweep can send what no encoder would write.
 */
import * as core from "@farcaster/core";
import { blake3 } from "@noble/hashes/blake3.js";

/** The content type of the hub's protobuf bodies. */
export const OCTET = "application/octet-stream";

export function varint(value: bigint | number): number[] {
  let v = BigInt(value);
  if (v < 0n) v &= (1n << 64n) - 1n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const tag = (field: number, wire: number) => varint(field * 8 + wire);
export const pbInt = (field: number, value: bigint | number) => [...tag(field, 0), ...varint(value)];
export const pbBytes = (field: number, bytes: ArrayLike<number>) => [
  ...tag(field, 2),
  ...varint(bytes.length),
  ...Array.from(bytes),
];
export const pbText = (field: number, text: string) => pbBytes(field, Buffer.from(text));

export const MESSAGE_TYPE = {
  castAdd: 1,
  castRemove: 2,
  reactionAdd: 3,
  linkAdd: 5,
  verificationAdd: 7,
  userDataAdd: 11,
  keyAdd: 16,
  keyRemove: 17,
};
const MAINNET = 1;
const PROTOCOL_EPOCH_S = 1609459200;
export const protocolNow = () => Math.floor(Date.now() / 1000) - PROTOCOL_EPOCH_S;

export interface DataFields {
  type?: number;
  fid?: bigint | number;
  timestamp?: number;
  network?: number;
  /** Already tagged body field(s). */
  body?: number[];
}

export function messageData(fid: number, fields: DataFields): Uint8Array {
  const castBody = pbText(4, "hostile input test");
  return Uint8Array.from([
    ...pbInt(1, fields.type ?? MESSAGE_TYPE.castAdd),
    ...pbInt(2, fields.fid ?? fid),
    ...pbInt(3, fields.timestamp ?? protocolNow()),
    ...pbInt(4, fields.network ?? MAINNET),
    ...(fields.body ?? pbBytes(5, castBody)),
  ]);
}

export interface Envelope {
  hash?: Uint8Array;
  hashScheme?: number;
  signature?: Uint8Array;
  signatureScheme?: number;
  signer?: Uint8Array;
}

export async function signedMessage(signerSeed: Uint8Array, data: Uint8Array, override: Envelope = {}) {
  const signer = new core.NobleEd25519Signer(signerSeed);
  const hash = blake3(data, { dkLen: 20 });
  const signature = (await signer.signMessageHash(override.hash ?? hash))._unsafeUnwrap();
  const key = (await signer.getSignerKey())._unsafeUnwrap();
  return Uint8Array.from([
    ...pbBytes(2, override.hash ?? hash),
    ...pbInt(3, override.hashScheme ?? 1),
    ...pbBytes(4, override.signature ?? signature),
    ...pbInt(5, override.signatureScheme ?? 1),
    ...pbBytes(6, override.signer ?? key),
    ...pbBytes(7, data),
  ]);
}
