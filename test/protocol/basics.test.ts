import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FARCASTER_EPOCH,
  Message as ReferenceMessage,
  ed25519 as referenceEd25519,
  toFarcasterTime,
} from "@farcaster/core";
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesToHex } from "viem";
import { HubError, grpcCodeOf } from "../../src/protocol/errors.js";
import {
  ed25519PublicKey,
  generateEd25519KeyPair,
  signEd25519,
  verifyEd25519,
} from "../../src/protocol/ed25519.js";
import { MessageType } from "../../src/protocol/generated/message.js";
import { blake3_20, blake3Keyed } from "../../src/protocol/hash.js";
import { decodeSubmitted, encodeMessage, signMessageData } from "../../src/protocol/message.js";
import {
  PROTOCOL_EPOCH_MS,
  currentProtocolTime,
  fromProtocolTime,
  toProtocolTime,
} from "../../src/protocol/time.js";

test("blake3_20 golden vectors", () => {
  // BLAKE3 test vectors truncated to 20 bytes: "" and "abc".
  assert.equal(bytesToHex(blake3_20(new Uint8Array())), "0xaf1349b9f5f9a1a6a0404dea36dcc9499bcb25c9");
  assert.equal(
    bytesToHex(blake3_20(new TextEncoder().encode("abc"))),
    "0x6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85".slice(0, 42),
  );
});

test("blake3_20 equals the general BLAKE3 implementation at every length around block and chunk edges", () => {
  for (let length = 0; length <= 1100; length++) {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = (i * 31 + length) & 0xff;
    assert.deepEqual(blake3_20(bytes), blake3(bytes, { dkLen: 20 }), `length ${length}`);
  }
});

test("blake3Keyed equals the general BLAKE3 implementation's keyed mode at every length around block and chunk edges", () => {
  const key = new Uint8Array(32).map((_, i) => (i * 7 + 3) & 0xff);
  for (let length = 0; length <= 1100; length++) {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = (i * 31 + length) & 0xff;
    for (const out of [12, 32]) {
      assert.deepEqual(blake3Keyed(key, bytes, out), blake3(bytes, { key, dkLen: out }), `length ${length}`);
    }
  }
  // The keyed mode is not the plain hash, and another key gives another MAC.
  const abc = new TextEncoder().encode("abc");
  assert.notDeepEqual(blake3Keyed(key, abc, 20), blake3_20(abc));
  assert.notDeepEqual(
    blake3Keyed(key, abc, 12),
    blake3Keyed(
      key.map((b) => b ^ 1),
      abc,
      12,
    ),
  );
  assert.throws(() => blake3Keyed(key.subarray(1), abc, 12), /32 bytes/);
});

test("protocol time agrees with the reference library", () => {
  assert.equal(PROTOCOL_EPOCH_MS, FARCASTER_EPOCH);
  for (const ms of [PROTOCOL_EPOCH_MS, PROTOCOL_EPOCH_MS + 499, PROTOCOL_EPOCH_MS + 500, 1_700_000_000_123]) {
    assert.equal(toProtocolTime(ms), toFarcasterTime(ms)._unsafeUnwrap());
  }
  assert.equal(fromProtocolTime(100), PROTOCOL_EPOCH_MS + 100_000);
  assert.throws(() => toProtocolTime(PROTOCOL_EPOCH_MS - 1), HubError);
  assert.throws(() => toProtocolTime(PROTOCOL_EPOCH_MS + 2 ** 32 * 1000), HubError);
  assert.ok(Math.abs(currentProtocolTime() - toProtocolTime(Date.now())) <= 1);
});

test("ed25519 interoperates with the reference signer", async () => {
  const pair = generateEd25519KeyPair();
  assert.deepEqual(ed25519PublicKey(pair.privateKey), pair.publicKey);
  assert.deepEqual((await referenceEd25519.getPublicKey(pair.privateKey))._unsafeUnwrap(), pair.publicKey);
  const hash = blake3_20(new Uint8Array([1, 2, 3]));
  const ours = signEd25519(hash, pair.privateKey);
  const theirs = (await referenceEd25519.signMessageHash(hash, pair.privateKey))._unsafeUnwrap();
  assert.deepEqual(ours, theirs); // Ed25519 is deterministic
  assert.ok(verifyEd25519(ours, hash, pair.publicKey));
  assert.ok(!verifyEd25519(ours, blake3_20(new Uint8Array([1])), pair.publicKey));
  assert.ok(!verifyEd25519(ours.subarray(1), hash, pair.publicKey));
  assert.ok(!verifyEd25519(ours, hash, new Uint8Array(31)));
  assert.ok(!verifyEd25519(ours, hash, new Uint8Array(32).fill(0xff)));
});

test("hub errors carry the gRPC code of the reference", () => {
  assert.equal(grpcCodeOf("bad_request.validation_failure"), 3);
  assert.equal(grpcCodeOf("bad_request.unknown_fid"), 2);
  assert.equal(grpcCodeOf("not_found"), 5);
  assert.equal(grpcCodeOf("unauthenticated"), 16);
  assert.equal(grpcCodeOf("unavailable.network_failure"), 14);
  const error = new HubError("not_found", "NotFound: ");
  assert.deepEqual(JSON.parse(JSON.stringify(error)), {
    errCode: "not_found",
    presentable: false,
    name: "HubError",
    code: 5,
    details: "NotFound: ",
    metadata: { errcode: ["not_found"] },
  });
});

test("a message castnet signs encodes byte for byte as the reference library encodes it, so hubs keep its data", () => {
  // Empty packed fields (no mentions) are where a canonical re-encoding of `data` parts from data_bytes.
  const castAddBody = {
    text: "no mentions",
    embeds: [],
    embedsDeprecated: [],
    mentions: [],
    mentionsPositions: [],
    type: 0,
  };
  const data = { type: MessageType.CAST_ADD, fid: 5, timestamp: 100, network: 1, castAddBody };
  const ours = encodeMessage(signMessageData(data, new Uint8Array(32).fill(9)));
  assert.equal(bytesToHex(ReferenceMessage.encode(ReferenceMessage.decode(ours)).finish()), bytesToHex(ours));
  // Stored as sent: the hub drops a `data` that is not the signed data_bytes.
  assert.equal(bytesToHex(decodeSubmitted(ours).bytes), bytesToHex(ours));
});
