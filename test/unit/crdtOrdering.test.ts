/**
 * The stores' ordering rules (src/hub/merge/stores/spec.ts and each store's spec; docs/reference/
 * protocol-rules.md §4): which of two messages with the same set key wins, the set key each store
 * makes of a message, and the byte order the keys and ts-hashes are compared in.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareBytes, fidKey, linkTypeKey } from "../../src/hub/data/keys.js";
import { specOf, storeFor } from "../../src/hub/merge/stores/index.js";
import { lastWriteWins, removeWins, type Competitor } from "../../src/hub/merge/stores/spec.js";
import { MessageData, MessageType, ReactionType } from "../../src/protocol/generated/message.js";

const hash = (...bytes: number[]) => Uint8Array.from(bytes);
const add = (timestamp: number, ...tsHash: number[]): Competitor => ({
  timestamp,
  tsHash: hash(...tsHash),
  isRemove: false,
});
const remove = (timestamp: number, ...tsHash: number[]): Competitor => ({
  ...add(timestamp, ...tsHash),
  isRemove: true,
});

describe("byte order of keys and ts-hashes", () => {
  it("compares byte by byte, a shorter key first on a common prefix (memcmp)", () => {
    assert.equal(compareBytes(hash(1, 2), hash(1, 2)), 0);
    assert.equal(compareBytes(hash(1, 2), hash(1, 3)), -1);
    assert.equal(compareBytes(hash(2), hash(1, 255)), 1);
    assert.equal(compareBytes(hash(1), hash(1, 0)), -1);
    assert.equal(compareBytes(hash(255, 0), hash(0, 255)), 255);
    assert.equal(compareBytes(hash(), hash()), 0);
  });
});

describe("last write wins (reactions, links, user data, verifications)", () => {
  it("lets the later timestamp win, whatever the kind and hash", () => {
    assert.equal(lastWriteWins(add(11, 0), remove(10, 9)), true);
    assert.equal(lastWriteWins(remove(10, 9), add(11, 0)), false);
  });

  it("lets a remove beat an add of the same timestamp, whatever the hash", () => {
    assert.equal(lastWriteWins(remove(10, 0), add(10, 9)), true);
    assert.equal(lastWriteWins(add(10, 9), remove(10, 0)), false);
  });

  it("lets the larger hash win between two of the same kind and timestamp", () => {
    assert.equal(lastWriteWins(add(10, 1, 2), add(10, 1, 1)), true);
    assert.equal(lastWriteWins(add(10, 1, 1), add(10, 1, 2)), false);
    assert.equal(lastWriteWins(remove(10, 2), remove(10, 1)), true);
  });

  it("ranks no message above itself", () => {
    assert.equal(lastWriteWins(add(10, 1), add(10, 1)), false);
  });
});

describe("remove wins (casts)", () => {
  it("lets a remove beat an add whatever their timestamps", () => {
    assert.equal(removeWins(remove(1, 0), add(1000, 9)), true);
    assert.equal(removeWins(add(1000, 9), remove(1, 0)), false);
  });

  it("lets the larger hash win between two removes, not the later one", () => {
    assert.equal(removeWins(remove(1, 9), remove(1000, 0)), true);
    assert.equal(removeWins(remove(1000, 0), remove(1, 9)), false);
  });
});

describe("each store's rules", () => {
  const names = (type: MessageType) => {
    const spec = storeFor(type);
    return spec === undefined ? undefined : [spec.store, spec.ranksAbove.name];
  };

  it("keeps each message type in its store, with its store's order", () => {
    assert.deepEqual(names(MessageType.CAST_ADD), [1, "removeWins"]);
    assert.deepEqual(names(MessageType.CAST_REMOVE), [1, "removeWins"]);
    assert.deepEqual(names(MessageType.LINK_ADD), [2, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.LINK_REMOVE), [2, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.LINK_COMPACT_STATE), [2, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.REACTION_ADD), [3, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.REACTION_REMOVE), [3, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.USER_DATA_ADD), [4, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.VERIFICATION_ADD_ETH_ADDRESS), [5, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.VERIFICATION_REMOVE), [5, "lastWriteWins"]);
    assert.deepEqual(names(MessageType.USERNAME_PROOF), [6, "newerHash"]);
    assert.deepEqual(names(MessageType.LEND_STORAGE), [7, "lastWriteWins"]);
    for (const never of [MessageType.FRAME_ACTION, MessageType.KEY_ADD, MessageType.NONE])
      assert.equal(storeFor(never), undefined, MessageType[never]);
  });

  it("ranks username proofs by hash alone: the newer ts-hash wins, removes do not exist", () => {
    const proofs = specOf(6);
    assert.equal(proofs.removeType, undefined);
    assert.equal(proofs.ranksAbove(add(1, 2), add(1000, 1)), true);
    assert.equal(proofs.ranksAbove(add(1000, 1), add(1, 2)), false);
  });

  it("keys a cast add by its own hash and a cast remove by its target's, so that they compete", () => {
    const casts = specOf(1);
    const own = hash(...Array(20).fill(7));
    const addData = MessageData.fromPartial({ type: MessageType.CAST_ADD, castAddBody: { text: "hi" } });
    const removeData = MessageData.fromPartial({
      type: MessageType.CAST_REMOVE,
      castRemoveBody: { targetHash: own },
    });
    assert.deepEqual(casts.setKey(addData, own), own);
    assert.deepEqual(casts.setKey(removeData, hash(1)), own);
  });

  it("keys a link by its type padded to 8 bytes and its target fid", () => {
    const link = (type: string, targetFid: number) =>
      specOf(2).setKey(
        MessageData.fromPartial({ type: MessageType.LINK_ADD, linkBody: { type, targetFid } }),
        hash(),
      );
    assert.deepEqual(
      link("follow", 258),
      Uint8Array.from([...Buffer.from("follow"), 0, 0, 3, 0, 0, 0, 0, 0, 0, 1, 2]),
    );
    assert.deepEqual(link("follow", 258), Uint8Array.from([...linkTypeKey("follow"), ...fidKey(258)]));
    // Types are cut to 8 bytes, as the reference pads and cuts them: these two compete.
    assert.deepEqual(link("abcdefghij", 1), link("abcdefgh", 1));
    assert.notDeepEqual(link("follow", 1), link("follow", 2));
  });

  it("keys a reaction by its type and target: a like and a recast of one url do not compete", () => {
    const reaction = (type: ReactionType, targetUrl: string) =>
      specOf(3).setKey(
        MessageData.fromPartial({ type: MessageType.REACTION_ADD, reactionBody: { type, targetUrl } }),
        hash(),
      );
    assert.deepEqual(
      reaction(ReactionType.LIKE, "https://x"),
      Uint8Array.from([1, 2, ...Buffer.from("https://x")]),
    );
    assert.notDeepEqual(reaction(ReactionType.LIKE, "https://x"), reaction(ReactionType.RECAST, "https://x"));
  });

  it("keys user data by its type alone: one value per type", () => {
    const userData = (type: number, value: string) =>
      specOf(4).setKey(
        MessageData.fromPartial({ type: MessageType.USER_DATA_ADD, userDataBody: { type, value } }),
        hash(),
      );
    assert.deepEqual(userData(3, "a bio"), hash(3));
    assert.deepEqual(userData(3, "another bio"), userData(3, "a bio"));
  });

  it("keys a loan by its borrower alone: a later loan of another unit type replaces it", () => {
    const lend = (toFid: number, unitType: number, numUnits: number) =>
      MessageData.fromPartial({
        type: MessageType.LEND_STORAGE,
        fid: 5,
        lendStorageBody: { toFid, numUnits, unitType },
      });
    const loans = specOf(7);
    assert.deepEqual(loans.setKey(lend(258, 1, 3), hash()), fidKey(258));
    assert.deepEqual(loans.setKey(lend(258, 0, 0), hash()), loans.setKey(lend(258, 2, 9), hash()));
    assert.deepEqual(loans.movesStorage?.(lend(258, 1, 3)), [5, 258]);
    assert.deepEqual(loans.movesStorage?.(lend(5, 1, 3)), [5]);
    assert.equal(loans.prunedOnMerge?.(lend(258, 1, 0)), true);
    assert.equal(loans.prunedOnMerge?.(lend(258, 1, 1)), false);
    assert.equal(loans.crossFid, undefined);
  });

  it("lets only verifications compete across fids, by their address", () => {
    const address = hash(...Array(20).fill(0xab));
    const verification = MessageData.fromPartial({
      type: MessageType.VERIFICATION_ADD_ETH_ADDRESS,
      verificationAddAddressBody: { address },
    });
    assert.deepEqual(specOf(5).crossFid?.target(verification), Uint8Array.from([4, ...address]));
    const removal = MessageData.fromPartial({
      type: MessageType.VERIFICATION_REMOVE,
      verificationRemoveBody: { address },
    });
    assert.equal(specOf(5).crossFid?.target(removal), undefined);
    for (const store of [1, 2, 3, 4] as const)
      assert.equal(specOf(store).crossFid, undefined, `store ${store}`);
  });
});
