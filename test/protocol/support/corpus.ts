/**
 * A seeded corpus of MessageData (valid and deliberately broken near every rule's boundary) for
 * differential testing against the reference library. Bodies are plain objects in the library's
 * shape so that the library itself builds, hashes and signs them.
 */
import * as ref from "@farcaster/core";
import { bytesToHex, type LocalAccount } from "viem";
import { bytesToBase58 } from "../../../src/protocol/base58.js";
import { signEd25519, ed25519PublicKey } from "../../../src/protocol/ed25519.js";
import type { Random } from "./random.js";

export interface CorpusCase {
  label: string;
  data: ref.MessageData;
  /** Envelope damage applied after signing. */
  envelope?: EnvelopeMutation;
}

export type EnvelopeMutation =
  | "hash-byte"
  | "hash-empty"
  | "hash-scheme"
  | "signature-byte"
  | "signature-short"
  | "signer-other"
  | "signature-scheme"
  | "drop-data"
  | "drop-data-bytes";

const ENVELOPE_MUTATIONS: EnvelopeMutation[] = [
  "hash-byte",
  "hash-empty",
  "hash-scheme",
  "signature-byte",
  "signature-short",
  "signer-other",
  "signature-scheme",
  "drop-data",
  "drop-data-bytes",
];

export interface CorpusContext {
  random: Random;
  /** Protocol time "now" (the library reads the real clock, so cases stay clear of the 600 s edge). */
  now: number;
  ethAccount: LocalAccount;
  ethSigner: ref.ViemLocalEip712Signer;
  solanaKey: Uint8Array;
}

type Partial<T> = { [K in keyof T]?: T[K] };

function castId(r: Random, broken = false): ref.CastId {
  if (!broken) return { fid: r.int(1, 100_000), hash: r.bytes(20) };
  return r.pick([
    { fid: 0, hash: r.bytes(20) },
    { fid: 1, hash: r.bytes(19) },
    { fid: 1, hash: new Uint8Array() },
    { fid: 0, hash: r.bytes(3) },
  ]);
}

function url(r: Random, broken = false): string {
  if (!broken) return "https://" + r.ascii(r.int(1, 60));
  return r.pick(["", "https://" + "a".repeat(249), "ü".repeat(129)]);
}

function text(r: Random): string {
  const bytes = r.pick([0, 1, 5, 100, 320, 321, 322, 1024, 1025, 2000, 10_000, 10_001]);
  return r.bool(0.2) && bytes > 2 ? "é".repeat(Math.floor(bytes / 2)) : "x".repeat(bytes);
}

function castAdd(r: Random): Partial<ref.CastAddBody> {
  const body: Partial<ref.CastAddBody> = {
    text: r.bool(0.7) ? "hello " + r.ascii(r.int(0, 40)) : text(r),
    type: r.pick([0, 0, 0, 1, 2, 3]) as ref.CastType,
    embeds: [],
    embedsDeprecated: [],
    mentions: [],
    mentionsPositions: [],
  };
  const textBytes = Buffer.byteLength(body.text!, "utf8");
  if (r.bool(0.4)) {
    const n = r.pick([1, 2, 3, 4, 5]);
    body.embeds = Array.from({ length: n }, () => {
      const kind = r.int(0, 9);
      if (kind < 5) return { url: url(r, r.bool(0.1)) };
      if (kind < 9) return { castId: castId(r, r.bool(0.1)) };
      return r.bool() ? {} : { url: url(r), castId: castId(r) };
    });
  }
  if (r.bool(0.1)) body.embedsDeprecated = Array.from({ length: r.int(1, 3) }, () => url(r, r.bool(0.1)));
  if (r.bool(0.4)) {
    const n = r.pick([1, 2, 3, 10, 11]);
    body.mentions = Array.from({ length: n }, () => (r.bool(0.05) ? 0 : r.int(1, 1000)));
    const positions = Array.from({ length: n }, () => r.int(0, textBytes)).sort((a, b) => a - b);
    if (r.bool(0.1)) positions.reverse();
    if (r.bool(0.05)) positions.pop();
    if (r.bool(0.05) && positions.length > 0) positions[0] = textBytes + 1;
    body.mentionsPositions = positions;
  }
  const parent = r.int(0, 5);
  if (parent === 1) body.parentCastId = castId(r, r.bool(0.1));
  if (parent === 2) body.parentUrl = url(r, r.bool(0.1));
  if (parent === 3) {
    body.parentCastId = castId(r);
    body.parentUrl = url(r);
  }
  return body;
}

function userData(r: Random): ref.UserDataBody {
  const type = r.pick([0, 1, 2, 3, 5, 6, 6, 6, 7, 8, 9, 10, 11, 12, 13, 15]);
  const values: Record<number, string[]> = {
    1: ["https://i.example/p.png", "a".repeat(256), "a".repeat(257)],
    2: ["Alice", "a".repeat(32), "a".repeat(33), "é".repeat(17)],
    3: ["bio", "b".repeat(256), "b".repeat(257)],
    5: ["https://alice.example", "u".repeat(257)],
    6: [
      "",
      "alice",
      "Alice",
      "a".repeat(16),
      "a".repeat(17),
      "-a",
      "alice.eth",
      "a.b.eth",
      "xn--ab.eth",
      "alice.base.eth",
    ],
    7: ["", "geo:12.34,-123.45", "geo:12.3,1.00", "geo:91.00,0.00", "geo:-90.00,-180.00", "geo:0.00,181.00"],
    8: ["", "abc_1", "ABC", "a".repeat(15), "a".repeat(16)],
    9: ["", "a-b", "a--b", "-a", "a".repeat(38), "a".repeat(39)],
    10: ["https://b.example", "b".repeat(257)],
    11: ["0x" + "a".repeat(40), "0x" + "a".repeat(41)],
    12: ["a".repeat(44), "a".repeat(45)],
    13: ["", "junk", "eip155:1/erc721:0x1234567890123456789012345678901234567890/1"],
  };
  return { type, value: r.pick(values[type] ?? ["x"]) };
}

async function verificationAdd(r: Random, c: CorpusContext, fid: number, network: number) {
  if (r.bool(0.35)) {
    const address = ed25519PublicKey(c.solanaKey);
    const blockHash = r.bytes(32);
    const claim =
      `fid: ${fid} address: ${bytesToBase58(address)} network: ${network} ` +
      `blockHash: ${bytesToBase58(blockHash)} protocol: 1`;
    let claimSignature = signEd25519(new TextEncoder().encode(claim), c.solanaKey);
    const damage = r.int(0, 7);
    if (damage === 1) claimSignature = r.bytes(64);
    if (damage === 2) claimSignature = claimSignature.subarray(1);
    return {
      address: damage === 3 ? address.subarray(1) : address,
      claimSignature,
      blockHash: damage === 4 ? r.bytes(20) : blockHash,
      verificationType: 0,
      chainId: 0,
      protocol: 1,
    };
  }
  const address = ref.hexStringToBytes(c.ethAccount.address)._unsafeUnwrap();
  const blockHash = r.bytes(32);
  const claimFid = r.bool(0.1) ? fid + 1 : fid;
  const claim = ref.makeVerificationAddressClaim(claimFid, address, network, blockHash, 0)._unsafeUnwrap();
  let claimSignature = (await c.ethSigner.signVerificationEthAddressClaim(claim))._unsafeUnwrap();
  const damage = r.int(0, 9);
  if (damage === 1) claimSignature = r.bytes(65);
  if (damage === 2) claimSignature = r.bytes(2049);
  return {
    address: damage === 3 ? r.bytes(19) : damage === 4 ? new Uint8Array() : address,
    claimSignature,
    blockHash: damage === 5 ? r.bytes(31) : blockHash,
    verificationType: damage === 6 ? 2 : 0,
    chainId: damage === 7 ? 10 : 0,
    protocol: damage === 8 ? 2 : 0,
  };
}

/** Signed by its owner: the hub refuses a proof whose signature does not recover to the owner. */
async function usernameProof(
  r: Random,
  c: CorpusContext,
  fid: number,
  unixSeconds: number,
): Promise<ref.UserNameProof> {
  const name = r.pick(["alice.eth", "bob.base.eth", "Alice.eth", "alice", "a.b.eth", "", "ab--cd.eth"]);
  const timestamp = r.bool(0.1) ? unixSeconds + 5 : unixSeconds;
  const owner = c.ethAccount.address;
  const claim = ref.makeUserNameProofClaim({ name, owner, timestamp });
  return {
    timestamp,
    name: new TextEncoder().encode(name),
    owner: ref.hexStringToBytes(owner)._unsafeUnwrap(),
    signature: (await c.ethSigner.signUserNameProofClaim(claim))._unsafeUnwrap(),
    fid: r.bool(0.1) ? fid + 1 : fid,
    type: r.pick([2, 2, 2, 3, 1, 0]),
  };
}

function frameAction(r: Random): ref.FrameActionBody {
  const limit = (normal: number, max: number) => (r.bool(0.1) ? max + 1 : r.bool(0.1) ? max : normal);
  return {
    url: r.bytes(r.bool(0.1) ? 0 : limit(30, 1024)),
    buttonIndex: r.pick([0, 1, 2, 4, 5, 6]),
    castId: r.bool(0.5) ? castId(r, r.bool(0.1)) : undefined,
    inputText: r.bytes(limit(5, 256)),
    state: r.bytes(limit(10, 4096)),
    transactionId: r.bytes(limit(0, 256)),
    address: r.bytes(limit(20, 64)),
  };
}

/** One case; the body kind is chosen at random, then each field near its boundaries. */
export async function makeCase(c: CorpusContext, index: number): Promise<CorpusCase> {
  const r = c.random;
  const fid = r.bool(0.03) ? 0 : r.int(1, 1_000_000);
  const network = r.bool(0.03) ? r.pick([0, 4]) : r.pick([1, 2, 3]);
  const offset = r.bool(0.05) ? r.pick([700, 3600]) : -r.int(0, 100_000);
  const timestamp = c.now + offset;
  const unixSeconds = Math.round(ref.fromFarcasterTime(timestamp)._unsafeUnwrap() / 1000);
  const kind = r.int(0, 14);
  const data: Partial<ref.MessageData> = { fid, network, timestamp };
  let label: string;
  switch (kind) {
    case 0:
    case 1:
    case 2:
      label = "cast-add";
      data.type = 1;
      data.castAddBody = castAdd(r) as ref.CastAddBody;
      if (r.bool(0.1)) data.timestamp = r.int(1, 73612799); // string embeds era
      break;
    case 3:
      label = "cast-remove";
      data.type = 2;
      data.castRemoveBody = { targetHash: r.bytes(r.pick([20, 20, 20, 0, 19])) };
      break;
    case 4: {
      label = "reaction";
      data.type = r.pick([3, 4]);
      const target = r.int(0, 4);
      data.reactionBody = {
        type: r.pick([1, 2, 1, 2, 0, 3]) as ref.ReactionType,
        targetCastId: target <= 1 || target === 3 ? castId(r, r.bool(0.1)) : undefined,
        targetUrl: target === 2 || target === 3 ? url(r, r.bool(0.1)) : undefined,
      };
      break;
    }
    case 5:
      label = "link";
      data.type = r.pick([5, 6]);
      data.linkBody = {
        type: r.pick(["follow", "follow", "", "123456789", "éééé"]),
        targetFid: r.bool(0.1) ? undefined : r.bool(0.05) ? 0 : r.int(1, 1000),
        displayTimestamp: r.bool(0.2) ? r.int(0, 2 ** 32 - 1) : undefined,
      };
      break;
    case 6:
      label = "link-compact-state";
      data.type = 14;
      data.linkCompactStateBody = {
        type: r.pick(["follow", "", "123456789"]),
        targetFids: Array.from({ length: r.int(0, 20) }, () => (r.bool(0.02) ? 0 : r.int(1, 10_000))),
      };
      break;
    case 7:
    case 8:
      label = "user-data";
      data.type = 11;
      data.userDataBody = userData(r);
      break;
    case 9:
      label = "verification-add";
      data.type = 7;
      data.verificationAddAddressBody = await verificationAdd(r, c, fid, network);
      break;
    case 10:
      label = "verification-remove";
      data.type = 8;
      data.verificationRemoveBody = {
        protocol: r.pick([0, 0, 1, 1, 2]) as ref.Protocol,
        address: r.bytes(r.pick([20, 32, 0, 21])),
      };
      break;
    case 11:
      label = "username-proof";
      data.type = 12;
      data.usernameProofBody = await usernameProof(r, c, fid, unixSeconds);
      break;
    case 12:
      label = "frame-action";
      data.type = 13;
      data.frameActionBody = frameAction(r);
      break;
    default: {
      label = "structure";
      // Wrong or missing bodies, unknown types, two bodies.
      const variant = r.int(0, 4);
      data.type = [1, 0, 99, 5, 9][variant]!;
      if (variant === 0) data.castRemoveBody = { targetHash: r.bytes(20) };
      if (variant === 1) data.linkBody = { type: "follow", targetFid: 1 };
      if (variant === 3) {
        data.linkBody = { type: "follow", targetFid: 1 };
        data.castRemoveBody = { targetHash: r.bytes(20) };
      }
    }
  }
  const envelope = r.bool(0.15) ? r.pick(ENVELOPE_MUTATIONS) : undefined;
  const result: CorpusCase = {
    label: `${index}:${label}${envelope ? `+${envelope}` : ""}`,
    data: ref.MessageData.fromPartial(data),
  };
  if (envelope !== undefined) result.envelope = envelope;
  return result;
}

export function applyEnvelope(message: ref.Message, mutation: EnvelopeMutation, r: Random): void {
  switch (mutation) {
    case "hash-byte":
      message.hash = new Uint8Array(message.hash);
      message.hash[r.int(0, 19)]! ^= 1;
      break;
    case "hash-empty":
      message.hash = new Uint8Array();
      break;
    case "hash-scheme":
      message.hashScheme = 0;
      break;
    case "signature-byte":
      message.signature = new Uint8Array(message.signature);
      message.signature[r.int(0, 63)]! ^= 4;
      break;
    case "signature-short":
      message.signature = message.signature.subarray(0, 63);
      break;
    case "signer-other":
      message.signer = r.bytes(32);
      break;
    case "signature-scheme":
      message.signatureScheme = 2;
      break;
    case "drop-data":
      message.data = undefined;
      break;
    case "drop-data-bytes":
      message.dataBytes = undefined;
      break;
  }
}

export { bytesToHex };
