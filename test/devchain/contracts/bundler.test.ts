/**
 * Bundler.register's model (docs/reference/contracts.md §8): a fid, its storage and two keys in one
 * call signed by the new custody with core's signer, the logs in order, the nonces spent, the
 * relayer refunded, and a failing signer undoing everything.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hexToBytes, zeroAddress, type Hex } from "viem";
import {
  ADDRESSES,
  ETHER,
  TestChain,
  UNIT_PRICE,
  account,
  decodedLogs,
  key,
  revertOf,
  signed,
} from "./support.js";

const app = account("app");
const user = account("user");
const recovery = account("recovery");
const relayer = account("relayer");

/** A chain where the app holds fid 1. */
async function chainWithApp(): Promise<TestChain> {
  const chain = new TestChain();
  for (const who of [app, relayer]) chain.fund(who.address, ETHER);
  await chain.send({
    from: app.address,
    to: "idGateway",
    functionName: "register",
    args: [zeroAddress],
    value: UNIT_PRICE,
  });
  return chain;
}

async function registration(chain: TestChain) {
  const deadline = chain.deadline();
  const sig = await signed(
    user.signer.signRegister({ to: user.address, recovery: recovery.address, nonce: 0n, deadline }),
  );
  return { to: user.address, recovery: recovery.address, deadline, sig };
}

/** A signer entry for `keyBytes` with the user's Add signature at KeyGateway nonce `nonce`. */
async function signerParams(chain: TestChain, keyBytes: Hex, nonce: bigint) {
  const deadline = chain.deadline();
  const metadata = await signed(
    app.signer.getSignedKeyRequestMetadata({ requestFid: 1n, key: hexToBytes(keyBytes), deadline }),
  );
  const sig = await signed(
    user.signer.signAdd({
      owner: user.address,
      keyType: 1,
      key: hexToBytes(keyBytes),
      metadataType: 1,
      metadata,
      nonce,
      deadline,
    }),
  );
  return { keyType: 1, key: keyBytes, metadataType: 1, metadata, deadline, sig };
}

describe("Bundler", () => {
  it("registers a fid with storage and two keys: Register, Rent, Add, Add; the relayer refunded", async () => {
    const chain = await chainWithApp();
    const signers = [await signerParams(chain, key(1), 0n), await signerParams(chain, key(2), 1n)];
    const { result, logs } = await chain.send({
      from: relayer.address,
      to: "bundler",
      functionName: "register",
      args: [await registration(chain), signers, 1n],
      value: 2n * UNIT_PRICE + 100n,
    });
    assert.equal(result, 2n);
    const decoded = decodedLogs(logs);
    assert.deepEqual(
      decoded.map((log) => [log.contract, log.eventName]),
      [
        ["idRegistry", "Register"],
        ["storageRegistry", "Rent"],
        ["keyRegistry", "Add"],
        ["keyRegistry", "Add"],
      ],
    );
    assert.deepEqual(decoded[0]?.args, { to: user.address, id: 2n, recovery: recovery.address });
    assert.deepEqual(decoded[1]?.args, { payer: ADDRESSES.idGateway, fid: 2n, units: 2n });
    assert.deepEqual(
      decoded.slice(2).map((log) => (log.args as { keyBytes: Hex }).keyBytes),
      [key(1), key(2)],
    );
    assert.equal(await chain.read("idGateway", "nonces", [user.address]), 1n);
    assert.equal(await chain.read("keyGateway", "nonces", [user.address]), 2n);
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [2n, 1]), [key(1), key(2)]);
    assert.equal(chain.balance(relayer.address), ETHER - 2n * UNIT_PRICE);
    assert.equal(chain.balance(ADDRESSES.bundler), 0n);
    assert.equal(chain.balance(ADDRESSES.idGateway), 0n);
  });

  it("registers with no signers", async () => {
    const chain = await chainWithApp();
    const { logs } = await chain.send({
      from: relayer.address,
      to: "bundler",
      functionName: "register",
      args: [await registration(chain), [], 0n],
      value: UNIT_PRICE,
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.eventName),
      ["Register", "Rent"],
    );
  });

  it("undoes everything when a signer's signature fails or the payment is short", async () => {
    const chain = await chainWithApp();
    // Both Add signatures made with nonce 0: the second no longer verifies.
    const signers = [await signerParams(chain, key(1), 0n), await signerParams(chain, key(2), 0n)];
    const call = {
      from: relayer.address,
      to: "bundler",
      functionName: "register",
      args: [await registration(chain), signers, 0n],
      value: UNIT_PRICE,
    } as const;
    assert.deepEqual(await revertOf(chain.send(call), "bundler"), {
      errorName: "InvalidSignature",
      args: [],
    });
    const short = chain.send({ ...call, args: [await registration(chain), [], 0n], value: UNIT_PRICE - 1n });
    assert.deepEqual(await revertOf(short, "bundler"), { errorName: "InvalidPayment", args: [] });
    assert.equal(await chain.read("idRegistry", "idCounter"), 1n);
    assert.equal(await chain.read("idGateway", "nonces", [user.address]), 0n);
    assert.equal(chain.balance(relayer.address), ETHER);
  });
});
