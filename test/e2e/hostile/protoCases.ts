/**
 * The hub's protobuf routes (submit, validate, bulk submit): random bytes, the stored cast cut short
 * and bit-flipped, wire-format garbage, and hand-built messages signed with a registered key that
 * each break one rule of the protocol.
 */
import { blake3 } from "@noble/hashes/blake3.js";
import { RANDOM, seeded } from "./generator.js";
import { isObject, sentenceProblem, type Case } from "./judge.js";
import type { Expect } from "./parts.js";
import {
  MESSAGE_TYPE,
  OCTET,
  messageData,
  pbBytes,
  pbInt,
  pbText,
  protocolNow,
  signedMessage,
  varint,
  type DataFields,
  type Envelope,
} from "./protobuf.js";
import type { Fixtures, Route } from "./routes.js";
const protocolSeconds = () => Math.floor(Date.now() / 1000) - 1_609_459_200;

interface SignedCase {
  label: string;
  bytes: Uint8Array;
  /** Certain to be invalid (never stored); otherwise only validated, and may be judged either way. */
  invalid: boolean;
}

async function signedCases(fx: Fixtures): Promise<SignedCase[]> {
  const seed = Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex");
  const fid = fx.alice.fid;
  const data = (fields: DataFields) => messageData(fid, fields);
  const cast = (body: number[]) => data({ body: pbBytes(5, body) });
  const castId = (castFid: bigint | number, hash: ArrayLike<number>) => [
    ...pbInt(1, castFid),
    ...pbBytes(2, hash),
  ];
  const text = pbText(4, "hello");
  // A verification of `address` with a random claim signature and block hash, drawn in that order.
  const verification = (address: ArrayLike<number>, more: number[] = []) =>
    data({
      type: MESSAGE_TYPE.verificationAdd,
      body: pbBytes(9, [
        ...pbBytes(1, address),
        ...pbBytes(2, RANDOM.bytes(65)),
        ...pbBytes(3, RANDOM.bytes(32)),
        ...more,
      ]),
    });
  const sign = (d: Uint8Array, override?: Envelope) => signedMessage(seed, d, override);
  const list: [string, Uint8Array, boolean][] = [];
  const certain = async (label: string, d: Uint8Array, override?: Envelope) =>
    list.push([label, await sign(d, override), true]);
  const unsure = async (label: string, d: Uint8Array) => list.push([label, await sign(d), false]);

  await unsure("a well-formed cast (the control case)", data({}));
  await certain("network 999", data({ network: 999 }));
  await certain("network testnet", data({ network: 2 }));
  await certain("message type 0", data({ type: 0, body: [] }));
  await certain("message type 99", data({ type: 99 }));
  await certain("message type 18 (channel update)", data({ type: 18 }));
  await certain("fid 2^64-1", data({ fid: (1n << 64n) - 1n }));
  await certain("fid 0", data({ fid: 0 }));
  await certain("another fid's message signed with alice's key", data({ fid: fx.bob.fid }));
  await certain("timestamp 2^32-1", data({ timestamp: 0xffffffff }));
  await unsure("timestamp 0", data({ timestamp: 0 }));
  await certain("cast text of 1025 bytes", cast(pbText(4, "x".repeat(1025))));
  await unsure("cast text that is not UTF-8", cast(pbBytes(4, [0x68, 0xff, 0xfe, 0x69])));
  await certain(
    "11 mentions",
    cast([
      ...text,
      ...Array.from({ length: 11 }, (_, i) => pbInt(2, i + 1)).flat(),
      ...Array.from({ length: 11 }, () => pbInt(5, 0)).flat(),
    ]),
  );
  await certain("mention position past the text", cast([...text, ...pbInt(2, fid), ...pbInt(5, 9999)]));
  await certain("mention positions without mentions", cast([...text, ...pbInt(5, 1), ...pbInt(5, 2)]));
  await certain(
    "5 embeds",
    cast([...text, ...Array.from({ length: 5 }, () => pbBytes(6, pbText(1, "https://e.example/x"))).flat()]),
  );
  await certain(
    "embed url of 1000 bytes",
    cast([...text, ...pbBytes(6, pbText(1, `https://e.example/${"x".repeat(1000)}`))]),
  );
  await certain("parent cast with a 3-byte hash", cast([...text, ...pbBytes(3, castId(fid, [1, 2, 3]))]));
  await certain("parent cast of fid 0", cast([...text, ...pbBytes(3, castId(0, new Uint8Array(20)))]));
  await unsure("parent url that is not a url", cast([...text, ...pbText(7, "not a url")]));
  await certain(
    "parent url of 1000 bytes",
    cast([...text, ...pbText(7, `https://e.example/${"x".repeat(1000)}`)]),
  );
  await unsure("cast type 99", cast([...text, ...pbInt(8, 99)]));
  await certain(
    "cast add with a reaction body",
    data({ body: pbBytes(7, [...pbInt(1, 1), ...pbText(3, "https://e.example")]) }),
  );
  await certain("cast add without a body", data({ body: [] }));
  await certain(
    "cast remove of a 3-byte hash",
    data({ type: MESSAGE_TYPE.castRemove, body: pbBytes(6, pbBytes(1, [1, 2, 3])) }),
  );
  await certain(
    "reaction type 0",
    data({
      type: MESSAGE_TYPE.reactionAdd,
      body: pbBytes(7, [...pbInt(1, 0), ...pbText(3, "https://e.example")]),
    }),
  );
  await certain(
    "reaction type 99",
    data({
      type: MESSAGE_TYPE.reactionAdd,
      body: pbBytes(7, [...pbInt(1, 99), ...pbText(3, "https://e.example")]),
    }),
  );
  await certain(
    "reaction without a target",
    data({ type: MESSAGE_TYPE.reactionAdd, body: pbBytes(7, pbInt(1, 1)) }),
  );
  await certain(
    "reaction to a url of 1000 bytes",
    data({
      type: MESSAGE_TYPE.reactionAdd,
      body: pbBytes(7, [...pbInt(1, 1), ...pbText(3, `https://e.example/${"x".repeat(1000)}`)]),
    }),
  );
  // Gasless keys: a KEY_ADD for a fresh key (its envelope signed by alice's key, so by a key that is
  // not the one added) and removals, each breaking one rule; none may cost a chain read or a write.
  const keyAdd = (fields: number[]) =>
    data({
      type: MESSAGE_TYPE.keyAdd,
      body: pbBytes(19, [
        ...pbBytes(1, RANDOM.bytes(32)),
        ...pbInt(2, 1),
        ...pbBytes(3, RANDOM.bytes(65)),
        ...pbInt(4, protocolSeconds() + 600),
        ...pbInt(5, 1),
        ...pbInt(7, 1),
        ...fields,
      ]),
    });
  const metadata = pbBytes(6, RANDOM.bytes(160));
  const scope = (type: number) => pbInt(9, type);
  await certain("KEY_ADD with garbage metadata", keyAdd([...metadata, ...scope(1), ...pbInt(10, 600)]));
  await certain(
    "KEY_ADD with 17 scopes",
    keyAdd([...metadata, ...Array.from({ length: 17 }, () => scope(1)).flat(), ...pbInt(10, 600)]),
  );
  await certain("KEY_ADD granting KEY_ADD", keyAdd([...metadata, ...scope(16), ...pbInt(10, 600)]));
  await certain("KEY_ADD without scopes", keyAdd([...metadata, ...pbInt(10, 600)]));
  await certain("KEY_ADD with ttl 0", keyAdd([...metadata, ...scope(1)]));
  await certain(
    "KEY_ADD with a ttl past 90 days",
    keyAdd([...metadata, ...scope(1), ...pbInt(10, 7_776_001)]),
  );
  await certain("KEY_ADD without metadata", keyAdd([...scope(1), ...pbInt(10, 600)]));
  const keyRemove = (signatureType: number, signature: ArrayLike<number>) =>
    data({
      type: MESSAGE_TYPE.keyRemove,
      body: pbBytes(20, [
        ...pbBytes(1, RANDOM.bytes(32)),
        ...pbBytes(2, signature),
        ...pbInt(3, signatureType),
        ...pbInt(4, protocolSeconds() + 600),
        ...pbInt(5, 1),
      ]),
    });
  await certain("KEY_REMOVE of signature type 9", keyRemove(9, RANDOM.bytes(65)));
  await certain("KEY_REMOVE of another key by itself", keyRemove(2, []));
  await certain("KEY_REMOVE with a forged custody signature", keyRemove(1, RANDOM.bytes(65)));
  await certain(
    'link of type ""',
    data({ type: MESSAGE_TYPE.linkAdd, body: pbBytes(14, [...pbText(1, ""), ...pbInt(3, fx.bob.fid)]) }),
  );
  await certain(
    "link of a 9-character type",
    data({
      type: MESSAGE_TYPE.linkAdd,
      body: pbBytes(14, [...pbText(1, "followers"), ...pbInt(3, fx.bob.fid)]),
    }),
  );
  await certain(
    "link without a target",
    data({ type: MESSAGE_TYPE.linkAdd, body: pbBytes(14, pbText(1, "follow")) }),
  );
  await unsure(
    "link to fid 2^64-1",
    data({
      type: MESSAGE_TYPE.linkAdd,
      body: pbBytes(14, [...pbText(1, "follow"), ...pbInt(3, (1n << 64n) - 1n)]),
    }),
  );
  await certain(
    "user data type 999",
    data({ type: MESSAGE_TYPE.userDataAdd, body: pbBytes(12, [...pbInt(1, 999), ...pbText(2, "x")]) }),
  );
  await certain(
    "username with spaces",
    data({
      type: MESSAGE_TYPE.userDataAdd,
      body: pbBytes(12, [...pbInt(1, 6), ...pbText(2, "not a name!")]),
    }),
  );
  await certain(
    "bio of 1000 bytes",
    data({
      type: MESSAGE_TYPE.userDataAdd,
      body: pbBytes(12, [...pbInt(1, 3), ...pbText(2, "x".repeat(1000))]),
    }),
  );
  await certain("verification of a 3-byte address", verification([1, 2, 3]));
  await certain("verification with a random claim signature", verification(RANDOM.bytes(20)));
  await certain("verification protocol 99", verification(RANDOM.bytes(20), pbInt(7, 99)));
  await certain("username proof of random bytes", data({ type: 12, body: pbBytes(15, RANDOM.bytes(80)) }));
  await unsure(
    "frame action, button 99",
    data({ type: 13, body: pbBytes(16, [...pbText(1, "https://f.example"), ...pbInt(2, 99)]) }),
  );
  await unsure(
    "frame action without a cast",
    data({ type: 13, body: pbBytes(16, [...pbText(1, "https://f.example"), ...pbInt(2, 1)]) }),
  );
  await unsure(
    "link compact state with 9000 targets",
    data({
      type: 14,
      body: pbBytes(17, [
        ...pbText(1, "follow"),
        ...Array.from({ length: 9000 }, (_, i) => pbInt(2, i + 1)).flat(),
      ]),
    }),
  );
  await unsure(
    "lend storage",
    data({ type: 15, body: pbBytes(18, [...pbInt(1, fx.bob.fid), ...pbInt(2, 1)]) }),
  );
  // Loans by alice, who rents one unit: stateless rules, then the lender's storage (on mainnet a
  // lender rents 1000 units of the cohort, and keeps one spare).
  const lend = (to: bigint | number, units: bigint | number, unitType: number) =>
    data({ type: 15, body: pbBytes(18, [...pbInt(1, to), ...pbInt(2, units), ...pbInt(3, unitType)]) });
  await certain("lend storage of unit type 3", lend(fx.bob.fid, 1, 3));
  await certain("lend storage of unit type -1", lend(fx.bob.fid, 1, -1));
  await certain("lend storage of 5001 units", lend(fx.bob.fid, 5001, 1));
  await certain("lend storage of 2^64-1 units", lend(fx.bob.fid, (1n << 64n) - 1n, 1));
  await certain("lend storage to itself", lend(fid, 1, 1));
  await certain("lend storage to an unregistered fid", lend(2 ** 40, 1, 1));
  await certain("lend storage to fid 2^64-1", lend((1n << 64n) - 1n, 1, 1));
  await certain("lend storage of no units to an unregistered fid", lend(2 ** 40, 0, 1));
  await certain(
    "lend storage dated an hour back",
    data({
      type: 15,
      timestamp: protocolNow() - 3600,
      body: pbBytes(18, [...pbInt(1, fx.bob.fid), ...pbInt(2, 1)]),
    }),
  );
  await unsure("key add", data({ type: 16, body: pbBytes(19, pbBytes(1, RANDOM.bytes(32))) }));
  await unsure("an unknown field 99 in the data", Uint8Array.from([...data({}), ...pbInt(99, 1)]));
  const good = data({});
  await certain("hash scheme 99", good, { hashScheme: 99 });
  await certain("hash scheme 0", good, { hashScheme: 0 });
  await certain("signature scheme 2 (EIP-712) on an Ed25519 signature", good, { signatureScheme: 2 });
  await certain("signature scheme 0", good, { signatureScheme: 0 });
  await certain("hash of other bytes", good, { hash: blake3(Uint8Array.from([1, 2, 3]), { dkLen: 20 }) });
  await certain("19-byte hash", good, { hash: blake3(good, { dkLen: 19 }) });
  await certain("32-byte hash", good, { hash: blake3(good, { dkLen: 32 }) });
  await certain("63-byte signature", good, { signature: RANDOM.bytes(63) });
  await certain("random 64-byte signature", good, { signature: RANDOM.bytes(64) });
  await certain("31-byte signer", good, { signer: RANDOM.bytes(31) });
  await certain("unregistered signer key", good, { signer: RANDOM.bytes(32) });
  await certain("empty signer", good, { signer: new Uint8Array() });
  await certain("empty data bytes", new Uint8Array());
  return list.map(([label, bytes, invalid]) => ({ label, bytes, invalid }));
}

/** Wire-format garbage: every one is unreadable as a Message. */
function malformedProtobuf(): [string, Uint8Array][] {
  return [
    ["an 11-byte varint", Uint8Array.from([0x08, ...Array(10).fill(0xff), 0x01])],
    ["wire type 6", Uint8Array.from([0x0e, 0x01])],
    ["wire type 7", Uint8Array.from([0x0f, 0x01])],
    ["an unterminated group", Uint8Array.from([0x0b, 0x08, 0x01])],
    ["an end group without a start", Uint8Array.from([0x0c])],
    ["a length of 2^63", Uint8Array.from([0x12, ...varint(1n << 63n)])],
    ["a length past the end", Uint8Array.from([0x12, 0x40, 0x01, 0x02])],
    ["field number 0", Uint8Array.from([0x00, 0x01])],
    ["data bytes holding wire type 7", Uint8Array.from(pbBytes(7, [0x0f, 0x01]))],
    ["data (field 1) holding garbage", Uint8Array.from(pbBytes(1, [0x12, 0x7f]))],
    ["64 KiB of 0xff", new Uint8Array(64 * 1024).fill(0xff)],
    ["a hash field as a varint", Uint8Array.from(pbInt(2, 5))],
  ];
}

export async function protoCases(route: Route, fx: Fixtures): Promise<Case[]> {
  const cases: Case[] = [];
  const random = seeded(0xb10b + route.path.length);
  const post = (
    label: string,
    body: Uint8Array | string | undefined,
    expect: Expect,
    contentType: string | null = OCTET,
    accepted?: Case["accepted"],
  ) =>
    cases.push({
      label,
      req: { method: "POST", path: route.path, body, contentType: contentType ?? undefined },
      expect,
      accepted: bulk ? accepted : undefined,
    });
  const limit = route.bodyLimit!;
  const validate = route.proto === "validate";
  const bulk = route.proto === "bulk";
  const wrap = (bytes: Uint8Array) => (bulk ? Uint8Array.from(pbBytes(1, bytes)) : bytes);
  // A bulk submit answers 200 with one outcome per message; every outcome of hostile input is an error.
  const outcomes: Case["accepted"] = (body) => {
    if (!isObject(body) || !Array.isArray(body.messages)) return "a bulk answer without messages";
    const stored = body.messages.filter((m) => !isObject(m) || typeof m.errCode !== "string");
    if (stored.length > 0) return `${stored.length} hostile message(s) stored`;
    const unclear = body.messages
      .map((m) => sentenceProblem((m as Record<string, unknown>).message))
      .find(Boolean);
    return unclear;
  };
  const bulkExpect: Expect = bulk ? "either" : "refuse";

  post("an empty body", new Uint8Array(), "refuse");
  post("no body at all", undefined, "refuse", null);
  for (let i = 0; i < 40; i++) {
    const bytes = random.bytes(1 + random.int(i < 30 ? 200 : 4000));
    post(`random bytes #${i}`, bytes, bulk ? "either" : "refuse", OCTET, outcomes);
  }
  const valid = fx.castBytes;
  const step = Math.max(1, Math.floor(valid.length / 60));
  for (let cut = 1; cut < valid.length; cut += step) {
    post(
      `the cast cut to ${cut} of ${valid.length} bytes`,
      wrap(valid.subarray(0, cut)),
      bulkExpect,
      OCTET,
      outcomes,
    );
  }
  for (const [label, bytes] of malformedProtobuf()) post(label, wrap(bytes), bulkExpect, OCTET, outcomes);
  for (const sc of await signedCases(fx)) {
    if (validate) post(sc.label, sc.bytes, sc.invalid ? "refuse" : "either");
    else if (sc.invalid) post(sc.label, wrap(sc.bytes), bulkExpect, OCTET, outcomes);
  }
  if (validate) {
    // Flipped bits: a flip in a field that does not count may leave the same valid message.
    for (let i = 0; i < 60; i++) {
      const mangled = valid.slice();
      const at = random.int(mangled.length);
      mangled[at] = mangled[at]! ^ (1 + random.int(255));
      post(`the cast with byte ${at} flipped`, mangled, "either");
    }
  }
  // Validation does not look at the store: the stored cast is still a valid message there.
  post("the stored cast again (a duplicate)", wrap(valid), validate ? "either" : bulkExpect, OCTET, outcomes);
  if (bulk) {
    post(
      "1001 messages",
      Uint8Array.from(Array.from({ length: 1001 }, () => pbBytes(1, [0x08, 0x01])).flat()),
      "refuse",
    );
    post("field 1 as a varint", Uint8Array.from(pbInt(1, 7)), "refuse");
    post("the cast cut inside its length prefix", Uint8Array.from(pbBytes(1, valid).slice(0, 2)), "refuse");
  }
  post(`over the ${limit}-byte body limit`, new Uint8Array(limit + 1), "refuse");
  for (const type of [
    "application/json",
    "text/plain",
    "application/x-protobuf",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
  ]) {
    post(`content type ${type}`, wrap(valid), "refuse", type);
  }
  post("no content type", wrap(valid), "refuse", null);
  post(
    "JSON of a message",
    JSON.stringify({ data: { type: 1, fid: fx.alice.fid } }),
    "refuse",
    "application/json",
  );
  return cases;
}
