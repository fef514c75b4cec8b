import assert from "node:assert/strict";
import { test } from "node:test";
import * as ref from "@farcaster/core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { generateEd25519KeyPair, signEd25519 } from "../../src/protocol/ed25519.js";
import { MessageData, type Message } from "../../src/protocol/generated/message.js";
import { encodeMessageData } from "../../src/protocol/encodeMessageData.js";
import { blake3_20 } from "../../src/protocol/hash.js";
import { renderMessage } from "../../src/protocol/json/index.js";
import { decodeMessage, makeTsHash, signMessageData } from "../../src/protocol/message.js";
import { NEUTRAL, REFERENCE } from "../../src/protocol/naming.js";
import { currentProtocolTime, fromProtocolTime } from "../../src/protocol/time.js";
import { validateMessage } from "../../src/protocol/validation/index.js";
import { applyEnvelope, makeCase, type CorpusContext } from "./support/corpus.js";
import { Random } from "./support/random.js";
import { referenceHubJson } from "./support/referenceJson.js";

const signerKey = generateEd25519KeyPair();
const refSigner = new ref.NobleEd25519Signer(signerKey.privateKey);
const ethAccount = privateKeyToAccount(generatePrivateKey());
const ethSigner = new ref.ViemLocalEip712Signer(ethAccount);
const dataOptions = { fid: 77, network: ref.FarcasterNetwork.MAINNET };

function unwrap<T>(result: { isOk(): boolean; _unsafeUnwrap(): T }): T {
  assert.ok(result.isOk(), String((result as unknown as { error?: Error }).error?.message));
  return result._unsafeUnwrap();
}

async function ourVerdict(bytes: Uint8Array) {
  const { message, dataBytes } = decodeMessage(bytes);
  return validateMessage(message, dataBytes);
}

test("messages built by the reference library validate here with the same hash and JSON", async () => {
  const castHash = new Uint8Array(20).fill(7);
  const blockHash = new Uint8Array(32).fill(9);
  const address = unwrap(await ethSigner.getSignerKey());
  const claim = unwrap(ref.makeVerificationAddressClaim(77, address, 1, blockHash, ref.Protocol.ETHEREUM));
  const claimSignature = unwrap(await ethSigner.signVerificationEthAddressClaim(claim));
  const unixNow = Math.floor(Date.now() / 1000);
  const built = [
    await ref.makeCastAdd(
      {
        text: "hi @ and a long enough sentence",
        embeds: [{ url: "https://example.com" }, { castId: { fid: 2, hash: castHash } }],
        embedsDeprecated: [],
        mentions: [5],
        mentionsPositions: [3],
        parentCastId: { fid: 3, hash: castHash },
        type: ref.CastType.CAST,
      },
      dataOptions,
      refSigner,
    ),
    await ref.makeCastAdd(
      {
        text: "x".repeat(2000),
        embeds: [],
        embedsDeprecated: [],
        mentions: [],
        mentionsPositions: [],
        type: 2,
      },
      dataOptions,
      refSigner,
    ),
    await ref.makeCastRemove({ targetHash: castHash }, dataOptions, refSigner),
    await ref.makeReactionAdd(
      { type: ref.ReactionType.LIKE, targetCastId: { fid: 3, hash: castHash } },
      dataOptions,
      refSigner,
    ),
    await ref.makeReactionRemove(
      { type: ref.ReactionType.RECAST, targetUrl: "https://x.y" },
      dataOptions,
      refSigner,
    ),
    await ref.makeLinkAdd({ type: "follow", targetFid: 9 }, dataOptions, refSigner),
    await ref.makeLinkAdd({ type: "follow", targetFid: 9, displayTimestamp: 5 }, dataOptions, refSigner),
    await ref.makeLinkRemove({ type: "follow", targetFid: 9 }, dataOptions, refSigner),
    await ref.makeLinkCompactState({ type: "follow", targetFids: [1, 2, 3] }, dataOptions, refSigner),
    await ref.makeUserDataAdd({ type: ref.UserDataType.BIO, value: "hello ü" }, dataOptions, refSigner),
    await ref.makeUserDataAdd({ type: ref.UserDataType.USERNAME, value: "alice" }, dataOptions, refSigner),
    await ref.makeVerificationAddEthAddress(
      {
        address,
        blockHash,
        claimSignature,
        verificationType: 0,
        chainId: 0,
        protocol: ref.Protocol.ETHEREUM,
      },
      dataOptions,
      refSigner,
    ),
    await ref.makeVerificationRemove({ address, protocol: ref.Protocol.ETHEREUM }, dataOptions, refSigner),
    await ref.makeFrameAction(
      {
        url: new TextEncoder().encode("https://frame.example"),
        buttonIndex: 2,
        castId: { fid: 3, hash: castHash },
        inputText: new TextEncoder().encode("hi"),
        state: new Uint8Array([1, 2]),
        transactionId: new Uint8Array(),
        address: new Uint8Array(),
      },
      dataOptions,
      refSigner,
    ),
    await ref.makeUsernameProof(
      {
        timestamp: unixNow,
        name: new TextEncoder().encode("alice.eth"),
        owner: address,
        signature: unwrap(
          await ethSigner.signUserNameProofClaim(
            ref.makeUserNameProofClaim({ name: "alice.eth", owner: ethAccount.address, timestamp: unixNow }),
          ),
        ),
        fid: 77,
        type: ref.UserNameType.USERNAME_TYPE_ENS_L1,
      },
      { ...dataOptions, timestamp: unwrap(ref.toFarcasterTime(unixNow * 1000)) },
      refSigner,
    ),
  ];
  for (const result of built as ref.HubResult<ref.Message>[]) {
    const message = unwrap(result);
    assert.ok((await ref.validations.validateMessage(message)).isOk());
    const bytes = ref.Message.encode(message).finish();
    const verdict = await ourVerdict(bytes);
    assert.ok(verdict.ok, verdict.ok ? "" : verdict.error.message);
    assert.deepEqual(verdict.hash, message.hash);
    assert.deepEqual(verdict.tsHash, makeTsHash(message.data!.timestamp, message.hash));
    assert.deepEqual(verdict.dataBytes, message.dataBytes);
    // Our encoder reproduces the library's bytes, so data-only messages hash the same.
    assert.deepEqual(encodeMessageData(verdict.data), message.dataBytes);
    assert.equal(verdict.signedOver, "hash");
    if (message.data!.type === ref.MessageType.VERIFICATION_ADD_ETH_ADDRESS) {
      assert.equal(verdict.claimProfile, REFERENCE);
    }
    for (const profile of [NEUTRAL, REFERENCE]) {
      assert.equal(
        JSON.stringify(renderMessage(verdict.message, profile)),
        JSON.stringify(referenceHubJson(ref.Message.toJSON(message), profile)),
      );
    }
  }
});

/**
 * Where we knowingly differ from the reference library (all documented in validation/): it returns
 * our expected verdict, or undefined when the library's verdict must be matched.
 */
function knownDeviation(data: ref.MessageData, dataBytes: Uint8Array | undefined): string | undefined {
  const exempt =
    data.type === ref.MessageType.LINK_COMPACT_STATE ||
    (data.type === ref.MessageType.CAST_ADD && data.castAddBody?.type === ref.CastType.TEN_K_CAST);
  if (dataBytes !== undefined && dataBytes.length > 2048 && !exempt) return "dataBytes > 2048 bytes";
  if (data.reactionBody !== undefined && data.reactionBody.type === 0) return "invalid reaction type";
  return undefined;
}

test("a seeded corpus of valid and invalid messages gets the reference library's verdicts", async () => {
  const random = new Random(Number(process.env.CORPUS_SEED ?? 20240611));
  const context: CorpusContext = {
    random,
    now: currentProtocolTime(),
    ethAccount,
    ethSigner,
    solanaKey: generateEd25519KeyPair().privateKey,
  };
  const counts = { valid: 0, invalid: 0, deviations: 0 };
  const disagreements: string[] = [];
  const textMismatches: string[] = [];
  for (let i = 0; i < 600; i++) {
    const corpusCase = await makeCase(context, i);
    const built = await ref.makeMessage(corpusCase.data, refSigner);
    const message = unwrap(built) as ref.Message;
    if (corpusCase.envelope !== undefined) applyEnvelope(message, corpusCase.envelope, random);
    const bytes = ref.Message.encode(message).finish();
    const theirs = await ref.validations.validateMessage(ref.Message.decode(bytes));
    const ours = await ourVerdict(bytes);
    const deviation = knownDeviation(corpusCase.data, message.dataBytes);
    if (deviation !== undefined && theirs.isOk()) {
      counts.deviations++;
      if (ours.ok || !ours.error.message.startsWith(deviation)) {
        disagreements.push(`${corpusCase.label}: expected deviation "${deviation}"`);
      }
      continue;
    }
    if (ours.ok) counts.valid++;
    else counts.invalid++;
    if (ours.ok !== theirs.isOk()) {
      const theirText = theirs.isErr() ? theirs.error.message : "valid";
      const ourText = ours.ok ? "valid" : ours.error.message;
      disagreements.push(`${corpusCase.label}: reference "${theirText}", ours "${ourText}"`);
    } else if (!ours.ok && theirs.isErr()) {
      const same = ours.error.errCode === theirs.error.errCode && ours.error.message === theirs.error.message;
      if (!same) {
        textMismatches.push(
          `${corpusCase.label}: reference ${theirs.error.errCode} "${theirs.error.message}", ` +
            `ours ${ours.error.errCode} "${ours.error.message}"`,
        );
      }
    }
  }
  assert.deepEqual(disagreements, []);
  assert.ok(counts.valid >= 100 && counts.invalid >= 100, JSON.stringify(counts));
  if (process.env.SHOW_TEXT_MISMATCHES) console.log(JSON.stringify(counts));
  if (process.env.SHOW_TEXT_MISMATCHES) console.log(textMismatches.join("\n"));
});

test("hostile bytes never throw and are refused", async () => {
  const random = new Random(7);
  for (let i = 0; i < 300; i++) {
    const bytes = random.bytes(random.int(0, 300));
    let decoded;
    try {
      decoded = decodeMessage(bytes);
    } catch (error) {
      assert.equal((error as { errCode?: string }).errCode, "bad_request.parse_failure");
      continue;
    }
    const verdict = await validateMessage(decoded.message, decoded.dataBytes);
    assert.equal(verdict.ok, false);
  }
  const verdict = await validateMessage({} as Message);
  assert.equal(verdict.ok, false);
});

/** A signed follow dated 601 s after `now`: one second past the allowed clock skew. */
function followAhead(now: number) {
  const data: MessageData = MessageData.fromPartial({
    type: 5,
    fid: 1,
    timestamp: currentProtocolTime(now) + 601,
    network: 3,
    linkBody: { type: "follow", targetFid: 2 },
  });
  return { data, message: signMessageData(data, signerKey.privateKey) };
}

test("measures the timestamp window against the injected clock", async () => {
  const now = Date.now();
  const { data, message } = followAhead(now);
  const future = await validateMessage(message, undefined, { now: () => now });
  assert.equal(future.ok ? "" : future.error.message, "timestamp more than 10 mins in the future");
  const later = await validateMessage(message, undefined, { now: () => fromProtocolTime(data.timestamp) });
  assert.ok(later.ok);
});

test("accepts a signature over the data bytes instead of the hash", async () => {
  const { data, message } = followAhead(Date.now());
  // A client that read SPEC.md literally signs the data bytes instead of the hash.
  const dataBytes = MessageData.encode({ ...data, timestamp: 100 }).finish();
  const literal: Message = {
    ...message,
    data: { ...data, timestamp: 100 },
    dataBytes,
    hash: blake3_20(dataBytes),
    signature: signEd25519(dataBytes, signerKey.privateKey),
  };
  const accepted = await validateMessage(literal);
  assert.ok(accepted.ok && accepted.signedOver === "dataBytes");
});

test("refuses signatures that only a small-order signer key or a non-canonical S makes valid", async () => {
  const now = Date.now();
  const { message } = followAhead(now - 700_000);
  // The identity point as the signer and (R = identity, S = 0) as the signature satisfy the
  // cofactorless equation for every message: whoever gets such a key approved could be forged by
  // anyone. The reference verifies strictly and refuses both.
  const identity = new Uint8Array(32);
  identity[0] = 1;
  const forged: Message = {
    ...message,
    signer: identity,
    signature: new Uint8Array([...identity, ...new Uint8Array(32)]),
  };
  const refused = await validateMessage(forged, undefined, { now: () => now });
  assert.equal(refused.ok ? "" : refused.error.message, "invalid signature");
  // S + L in place of S: the same point equation, but an encoding the reference refuses.
  const L = 2n ** 252n + 27742317777372353535851937790883648493n;
  let s = 0n;
  for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(message.signature[32 + i]!);
  const bumped = new Uint8Array(message.signature);
  let t = s + L;
  for (let i = 0; i < 32; i++, t >>= 8n) bumped[32 + i] = Number(t & 0xffn);
  const nonCanonical = await validateMessage({ ...message, signature: bumped }, undefined, {
    now: () => now,
  });
  assert.equal(nonCanonical.ok ? "" : nonCanonical.error.message, "invalid signature");
  assert.ok((await validateMessage(message, undefined, { now: () => now })).ok);
});

test("refuses contract verifications", async () => {
  const contract = MessageData.fromPartial({
    type: 7,
    fid: 1,
    timestamp: 100,
    network: 1,
    verificationAddAddressBody: {
      address: new Uint8Array(20).fill(1),
      claimSignature: new Uint8Array(65),
      blockHash: new Uint8Array(32),
      verificationType: 1,
      chainId: 10,
      protocol: 0,
    },
  });
  const refused = await validateMessage(signMessageData(contract, signerKey.privateKey));
  assert.ok(!refused.ok && refused.error.errCode === "bad_request.validation_failure");
  assert.match(refused.ok ? "" : refused.error.message, /contract verifications are not supported/);
});
