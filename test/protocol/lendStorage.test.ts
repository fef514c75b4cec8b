/**
 * LEND_STORAGE in the protocol module (docs/reference/storage-lending.md §1–2): castnet signs a loan
 * byte for byte as the reference library's makeLendStorage does, and judges a loan's body as the
 * successor node does, which the library's own checks agree with but for the unit type.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as ref from "@farcaster/core";
import { generateEd25519KeyPair } from "../../src/protocol/ed25519.js";
import { MessageType, StorageUnitType, type MessageData } from "../../src/protocol/generated/message.js";
import { renderMessage } from "../../src/protocol/json/index.js";
import { decodeMessage, encodeMessage, signMessageData } from "../../src/protocol/message.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { currentProtocolTime, fromProtocolTime } from "../../src/protocol/time.js";
import { validateMessage } from "../../src/protocol/validation/index.js";

const key = generateEd25519KeyPair();
const refSigner = new ref.NobleEd25519Signer(key.privateKey);

function loan(body: { toFid: number; numUnits: number; unitType: number }, timestamp: number): MessageData {
  return { type: MessageType.LEND_STORAGE, fid: 41, timestamp, network: 1, lendStorageBody: body };
}

function unwrap<T>(result: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): unknown }): T {
  assert.ok(result.isOk(), String(result.isOk() ? "" : result._unsafeUnwrapErr()));
  return result._unsafeUnwrap();
}

test("castnet signs a loan into the very bytes makeLendStorage makes", async () => {
  const timestamp = currentProtocolTime();
  for (const body of [
    { toFid: 42, numUnits: 3, unitType: StorageUnitType.UNIT_TYPE_2024 },
    // Zero fields are left out by both: a withdrawal of legacy units.
    { toFid: 42, numUnits: 0, unitType: StorageUnitType.UNIT_TYPE_LEGACY },
    { toFid: 2 ** 40, numUnits: 5000, unitType: StorageUnitType.UNIT_TYPE_2025 },
  ]) {
    const theirs = unwrap(
      await ref.makeLendStorage(
        body,
        { fid: 41, network: ref.FarcasterNetwork.MAINNET, timestamp },
        refSigner,
      ),
    );
    const ours = encodeMessage(signMessageData(loan(body, timestamp), key.privateKey));
    assert.equal(
      Buffer.from(ours).toString("hex"),
      Buffer.from(ref.Message.encode(theirs).finish()).toString("hex"),
    );
    const { message } = decodeMessage(ours);
    assert.deepEqual(renderMessage(message, NEUTRAL).data!.lendStorageBody, {
      toFid: body.toFid,
      numUnits: body.numUnits,
      unitType: ["UNIT_TYPE_LEGACY", "UNIT_TYPE_2024", "UNIT_TYPE_2025"][body.unitType],
    });
  }
});

test("judges a loan's body with the successor node's rules and sentences", async () => {
  const nowMs = Date.now();
  const now = currentProtocolTime(nowMs);
  const cases: [string, MessageData, string | undefined][] = [
    ["a loan of 2024 units", loan({ toFid: 42, numUnits: 10, unitType: 1 }, now), undefined],
    ["a withdrawal", loan({ toFid: 42, numUnits: 0, unitType: 1 }, now), undefined],
    ["5000 units", loan({ toFid: 42, numUnits: 5000, unitType: 2 }, now), undefined],
    ["a loan to itself", loan({ toFid: 41, numUnits: 1, unitType: 0 }, now), undefined],
    ["a loan to fid 0", loan({ toFid: 0, numUnits: 1, unitType: 0 }, now), undefined],
    ["dated 600 s ago", loan({ toFid: 42, numUnits: 1, unitType: 1 }, now - 600), undefined],
    [
      "dated 601 s ago",
      loan({ toFid: 42, numUnits: 1, unitType: 1 }, now - 601),
      "timestamp more than 10 mins in the past",
    ],
    ["unit type 3", loan({ toFid: 42, numUnits: 1, unitType: 3 }, now), "invalid storage unit type"],
    ["unit type -1", loan({ toFid: 42, numUnits: 1, unitType: -1 }, now), "invalid storage unit type"],
    ["5001 units", loan({ toFid: 42, numUnits: 5001, unitType: 1 }, now), "num storage units too large"],
    [
      "an old loan of too many units",
      loan({ toFid: 42, numUnits: 9999, unitType: 9 }, now - 3600),
      "timestamp more than 10 mins in the past",
    ],
  ];
  for (const [label, data, expected] of cases) {
    const verdict = await validateMessage(signMessageData(data, key.privateKey), undefined, {
      now: () => nowMs,
    });
    assert.equal(verdict.ok ? undefined : verdict.error.message, expected, label);
    if (!verdict.ok) assert.equal(verdict.error.errCode, "bad_request.validation_failure", label);
    // The reference library agrees, except that it lets any unit type through. It reads the real
    // clock, which may have ticked on since `now`: the 600 s edge is ours alone.
    if (label === "dated 600 s ago") continue;
    const theirs = await ref.validations.validateMessage(
      unwrap(await ref.makeMessage(ref.MessageData.fromPartial(data as object), refSigner)),
    );
    const libraryExpects = expected === "invalid storage unit type" ? undefined : expected;
    assert.equal(theirs.isOk() ? undefined : theirs._unsafeUnwrapErr().message, libraryExpects, label);
  }
});

test("bounds a loan's age by the checking hub's clock", async () => {
  const data = loan({ toFid: 42, numUnits: 1, unitType: 1 }, 1_000_000);
  const message = signMessageData(data, key.privateKey);
  const then = fromProtocolTime(1_000_000);
  assert.ok((await validateMessage(message, undefined, { now: () => then + 600_000 })).ok);
  const late = await validateMessage(message, undefined, { now: () => then + 601_000 });
  assert.equal(late.ok ? "" : late.error.message, "timestamp more than 10 mins in the past");
});
