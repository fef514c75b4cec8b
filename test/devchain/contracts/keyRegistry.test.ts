/**
 * KeyRegistry, KeyGateway and the SignedKeyRequestValidator (docs/reference/contracts.md §5–§6):
 * keys added with a signed key request, key type 2, removal with its swap-and-pop order, paging,
 * the checks in order with the error each contract's ABI names.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bytesToHex,
  encodeAbiParameters,
  concat,
  hexToBytes,
  keccak256,
  parseAbiParameters,
  toFunctionSelector,
  zeroAddress,
  type Hex,
} from "viem";
import {
  ADDRESSES,
  ETHER,
  TestChain,
  UNIT_PRICE,
  account,
  assertEmptyRevert,
  decodedLogs,
  key,
  revertOf,
  signed,
} from "./support.js";

const app = account("app");
const user = account("user");
const stranger = account("stranger");
const relayer = account("relayer");

/** A chain where the app holds fid 1 and the user fid 2. */
async function chainWithFids(): Promise<TestChain> {
  const chain = new TestChain();
  for (const who of [app, user, stranger, relayer]) chain.fund(who.address, ETHER);
  for (const who of [app, user]) {
    await chain.send({
      from: who.address,
      to: "idGateway",
      functionName: "register",
      args: [zeroAddress],
      value: UNIT_PRICE,
    });
  }
  return chain;
}

/** The app's signed key request for `keyBytes`, as core encodes it. */
async function metadataFor(keyBytes: Hex, deadline: bigint, signer = app, requestFid = 1n): Promise<Hex> {
  return signed(
    signer.signer.getSignedKeyRequestMetadata({ requestFid, key: hexToBytes(keyBytes), deadline }),
  );
}

async function addKey(chain: TestChain, keyBytes: Hex, keyType = 1) {
  const metadata = await metadataFor(keyBytes, chain.deadline());
  return chain.send({
    from: user.address,
    to: "keyGateway",
    functionName: "add",
    args: [keyType, keyBytes, 1, metadata],
  });
}

describe("KeyRegistry and KeyGateway", () => {
  it("adds a key for the caller's fid with the exact Add log", async () => {
    const chain = await chainWithFids();
    const metadata = await metadataFor(key(1), chain.deadline());
    const add = {
      from: user.address,
      to: "keyGateway",
      functionName: "add",
      args: [1, key(1), 1, metadata],
    } as const;
    const { logs } = await chain.send(add);
    assert.deepEqual(decodedLogs(logs), [
      {
        contract: "keyRegistry",
        eventName: "Add",
        args: { fid: 2n, keyType: 1, key: keccak256(key(1)), keyBytes: key(1), metadataType: 1, metadata },
      },
    ]);
    assert.deepEqual(await chain.read("keyRegistry", "keyDataOf", [2n, key(1)]), { state: 1, keyType: 1 });
    assert.deepEqual(await chain.read("keyRegistry", "keys", [2n, key(1)]), [1, 1]);
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [2n, 1]), [key(1)]);
    assert.equal(await chain.read("keyRegistry", "totalKeys", [2n, 1]), 1n);
    assert.deepEqual(await revertOf(chain.send(add), "keyGateway"), { errorName: "InvalidState", args: [] });
  });

  it("adds a key for a fid owner's Add signature; its nonce is spent", async () => {
    const chain = await chainWithFids();
    const deadline = chain.deadline();
    const metadata = await metadataFor(key(2), deadline);
    const message = {
      owner: user.address,
      keyType: 1,
      key: hexToBytes(key(2)),
      metadataType: 1,
      metadata,
      deadline,
    };
    const sig = await signed(user.signer.signAdd({ ...message, nonce: 0n }));
    const addFor = {
      from: relayer.address,
      to: "keyGateway",
      functionName: "addFor",
      args: [user.address, 1, key(2), 1, metadata, deadline, sig],
    } as const;
    const { logs } = await chain.send(addFor);
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.eventName),
      ["Add"],
    );
    assert.equal(await chain.read("keyGateway", "nonces", [user.address]), 1n);
    assert.deepEqual(await revertOf(chain.send(addFor), "keyGateway"), {
      errorName: "InvalidSignature",
      args: [],
    });
    const bySomeoneElse = await signed(
      stranger.signer.signAdd({ ...message, key: hexToBytes(key(3)), nonce: 1n }),
    );
    const forged = chain.send({
      ...addFor,
      args: [user.address, 1, key(3), 1, metadata, deadline, bySomeoneElse],
    });
    assert.deepEqual(await revertOf(forged, "keyGateway"), { errorName: "InvalidSignature", args: [] });
  });

  it("adds an auth address as key type 2, read back by keyDataOf(fid, abi.encode(address))", async () => {
    const chain = await chainWithFids();
    const authKey = encodeAbiParameters([{ type: "address" }], [stranger.address]);
    await addKey(chain, authKey, 2);
    assert.deepEqual(await chain.read("keyRegistry", "keyDataOf", [2n, authKey]), { state: 1, keyType: 2 });
  });

  it("refuses metadata the validator does not accept: InvalidMetadata", async () => {
    const chain = await chainWithFids();
    const deadline = chain.deadline();
    const add = (keyBytes: Hex, metadata: Hex) =>
      chain.send({
        from: user.address,
        to: "keyGateway",
        functionName: "add",
        args: [1, keyBytes, 1, metadata],
      });
    const cases: [string, Hex, Hex][] = [
      ["signed by an address without the fid", key(4), await metadataFor(key(4), deadline, stranger)],
      ["for a fid the signer does not hold", key(4), await metadataFor(key(4), deadline, app, 2n)],
      ["past its deadline", key(4), await metadataFor(key(4), chain.timestamp - 1n)],
      ["for another key", key(4), await metadataFor(key(5), deadline)],
      ["for a key that is not 32 bytes", "0x0404", await metadataFor("0x0404", deadline)],
    ];
    for (const [why, keyBytes, metadata] of cases) {
      assert.deepEqual(
        await revertOf(add(keyBytes, metadata), "keyGateway"),
        { errorName: "InvalidMetadata", args: [] },
        why,
      );
    }
    await assertEmptyRevert(add(key(4), "0x1234"));
    assert.equal(await chain.read("keyRegistry", "totalKeys", [2n, 1]), 0n);
  });

  it("names the KeyRegistry's own refusals: Unauthorized, ValidatorNotFound, ExceedsMaximum", async () => {
    const chain = await chainWithFids();
    const metadata = await metadataFor(key(6), chain.deadline());
    const noFid = chain.send({
      from: stranger.address,
      to: "keyGateway",
      functionName: "add",
      args: [1, key(6), 1, metadata],
    });
    assert.deepEqual(await revertOf(noFid, "keyRegistry"), { errorName: "Unauthorized", args: [] });
    const direct = chain.send({
      from: user.address,
      to: "keyRegistry",
      functionName: "add",
      args: [user.address, 1, key(6), 1, metadata],
    });
    assert.deepEqual(await revertOf(direct, "keyRegistry"), { errorName: "Unauthorized", args: [] });
    const noValidator = chain.send({
      from: user.address,
      to: "keyGateway",
      functionName: "add",
      args: [3, key(6), 1, metadata],
    });
    assert.deepEqual(await revertOf(noValidator, "keyRegistry"), {
      errorName: "ValidatorNotFound",
      args: [3, 1],
    });

    chain.prices = { ...chain.prices, maxKeysPerFid: 2n };
    await addKey(chain, key(7));
    await addKey(chain, key(8));
    assert.deepEqual(await revertOf(addKey(chain, key(9)), "keyGateway"), {
      errorName: "ExceedsMaximum",
      args: [],
    });
  });

  it("removes keys for good, the last added key taking the removed one's place", async () => {
    const chain = await chainWithFids();
    for (const n of [1, 2, 3, 4]) await addKey(chain, key(n));
    const { logs } = await chain.send({
      from: user.address,
      to: "keyRegistry",
      functionName: "remove",
      args: [key(2)],
    });
    assert.deepEqual(decodedLogs(logs), [
      {
        contract: "keyRegistry",
        eventName: "Remove",
        args: { fid: 2n, key: keccak256(key(2)), keyBytes: key(2) },
      },
    ]);
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [2n, 1]), [key(1), key(4), key(3)]);
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [2n, 2]), [key(2)]);
    assert.equal(await chain.read("keyRegistry", "keyAt", [2n, 1, 1n]), key(4));
    assert.deepEqual(await chain.read("keyRegistry", "keyDataOf", [2n, key(2)]), { state: 2, keyType: 1 });

    const deadline = chain.deadline();
    const sig = await signed(
      user.signer.signRemove({ owner: user.address, key: hexToBytes(key(4)), nonce: 0n, deadline }),
    );
    await chain.send({
      from: relayer.address,
      to: "keyRegistry",
      functionName: "removeFor",
      args: [user.address, key(4), deadline, sig],
    });
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [2n, 1]), [key(1), key(3)]);
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [2n, 2]), [key(2), key(4)]);
    assert.equal(await chain.read("keyRegistry", "nonces", [user.address]), 1n);

    const again = chain.send({
      from: user.address,
      to: "keyRegistry",
      functionName: "remove",
      args: [key(2)],
    });
    assert.deepEqual(await revertOf(again, "keyRegistry"), { errorName: "InvalidState", args: [] });
    assert.deepEqual(await revertOf(addKey(chain, key(2)), "keyGateway"), {
      errorName: "InvalidState",
      args: [],
    });
    const byStranger = chain.send({
      from: stranger.address,
      to: "keyRegistry",
      functionName: "remove",
      args: [key(1)],
    });
    assert.deepEqual(await revertOf(byStranger, "keyRegistry"), { errorName: "Unauthorized", args: [] });
  });

  it("pages keysOf, and reads past the end as the contract does", async () => {
    const chain = await chainWithFids();
    for (const n of [1, 2, 3]) await addKey(chain, key(n));
    const page = (start: bigint, size: bigint) => chain.read("keyRegistry", "keysOf", [2n, 1, start, size]);
    assert.deepEqual(await page(0n, 2n), [[key(1), key(2)], 2n]);
    assert.deepEqual(await page(2n, 2n), [[key(3)], 0n]);
    assert.deepEqual(await page(5n, 1n), [[], 0n]);
    assert.deepEqual(await revertOf(chain.read("keyRegistry", "keyAt", [2n, 1, 3n]), "keyRegistry"), {
      errorName: "Panic",
      args: [0x32n],
    });
    assert.deepEqual(await revertOf(chain.read("keyRegistry", "keysOf", [2n, 0]), "keyRegistry"), {
      errorName: "InvalidState",
      args: [],
    });
    await assertEmptyRevert(chain.read("keyRegistry", "totalKeys", [2n, 3]));
  });

  it("names its validators and answers the validator's own functions", async () => {
    const chain = await chainWithFids();
    assert.equal(await chain.read("keyRegistry", "validators", [1, 1]), ADDRESSES.signedKeyRequestValidator);
    assert.equal(await chain.read("keyRegistry", "validators", [2, 1]), ADDRESSES.signedKeyRequestValidator);
    assert.equal(await chain.read("keyRegistry", "validators", [1, 2]), zeroAddress);
    const deadline = chain.deadline();
    const metadata = await metadataFor(key(1), deadline);
    assert.equal(await chain.read("signedKeyRequestValidator", "validate", [0n, key(1), metadata]), true);
    assert.equal(await chain.read("signedKeyRequestValidator", "validate", [0n, key(2), metadata]), false);
    const signature = bytesToHex(
      (
        await app.signer.signKeyRequest({ requestFid: 1n, key: hexToBytes(key(1)), deadline })
      )._unsafeUnwrap(),
    );
    const encoded = await chain.read("signedKeyRequestValidator", "encodeMetadata", [
      { requestFid: 1n, requestSigner: app.address, signature, deadline },
    ]);
    assert.equal(encoded, metadata);
  });

  it("rejects a uint8 argument whose word holds more than a byte", async () => {
    const chain = await chainWithFids();
    const metadata = await metadataFor(key(1), chain.deadline());
    const selector = toFunctionSelector("add(uint32,bytes,uint8,bytes)");
    const wide = parseAbiParameters("uint32, bytes, uint256, bytes");
    const data = concat([selector, encodeAbiParameters(wide, [1, key(1), 257n, metadata])]);
    await assertEmptyRevert(chain.sendRaw(user.address, ADDRESSES.keyGateway, data));
  });
});
