/**
 * IdGateway's model (docs/reference/contracts.md §4) through raw calldata, plus what every contract
 * shares (§2.3): views at zero state, registration with its logs and refunds, registerFor's
 * signature, and the reverts of dispatch and payability.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeFunctionData, zeroAddress } from "viem";
import { isContractAddress } from "../../../src/devchain/contracts/call.js";
import {
  ABIS,
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

const alice = account("alice");
const bob = account("bob");
const relayer = account("relayer");

function fundedChain(): TestChain {
  const chain = new TestChain();
  for (const who of [alice, bob, relayer]) chain.fund(who.address, ETHER);
  return chain;
}

describe("IdGateway", () => {
  it("answers views at zero state", async () => {
    const chain = new TestChain();
    assert.equal(await chain.read("idGateway", "price"), UNIT_PRICE);
    assert.equal(await chain.read("idGateway", "price", [2n]), 3n * UNIT_PRICE);
    assert.equal(await chain.read("bundler", "price", [1n]), 2n * UNIT_PRICE);
    assert.equal(await chain.read("idGateway", "nonces", [alice.address]), 0n);
    assert.equal(await chain.read("idRegistry", "idCounter"), 0n);
    assert.equal(await chain.read("idRegistry", "idOf", [alice.address]), 0n);
    assert.equal(await chain.read("idRegistry", "custodyOf", [1n]), zeroAddress);
    assert.equal(await chain.read("idRegistry", "recoveryOf", [1n]), zeroAddress);
    assert.equal(await chain.read("storageRegistry", "unitPrice"), UNIT_PRICE);
    assert.equal(await chain.read("storageRegistry", "price", [5n]), 5n * UNIT_PRICE);
    assert.equal(await chain.read("storageRegistry", "rentedUnits"), 0n);
    assert.equal(await chain.read("storageRegistry", "maxUnits"), 200_000n);
    assert.deepEqual(await chain.read("keyRegistry", "keyDataOf", [1n, key(1)]), { state: 0, keyType: 0 });
    assert.deepEqual(await chain.read("keyRegistry", "keysOf", [1n, 1]), []);
    assert.equal(await chain.read("keyRegistry", "totalKeys", [1n, 2]), 0n);
    assert.equal(await chain.read("keyRegistry", "maxKeysPerFid"), 1000n);
    assert.equal(await chain.read("keyGateway", "nonces", [alice.address]), 0n);
  });

  it("registers the caller with 1 + extra units: Register, then Rent paid by the gateway", async () => {
    const chain = fundedChain();
    const { result, logs } = await chain.send({
      from: alice.address,
      to: "idGateway",
      functionName: "register",
      args: [bob.address, 2n],
      value: 3n * UNIT_PRICE,
    });
    assert.deepEqual(result, [1n, 0n]);
    assert.deepEqual(decodedLogs(logs), [
      {
        contract: "idRegistry",
        eventName: "Register",
        args: { to: alice.address, id: 1n, recovery: bob.address },
      },
      {
        contract: "storageRegistry",
        eventName: "Rent",
        args: { payer: ADDRESSES.idGateway, fid: 1n, units: 3n },
      },
    ]);
    assert.equal(await chain.read("idRegistry", "idOf", [alice.address]), 1n);
    assert.equal(await chain.read("idRegistry", "custodyOf", [1n]), alice.address);
    assert.equal(await chain.read("idRegistry", "recoveryOf", [1n]), bob.address);
    assert.equal(await chain.read("storageRegistry", "rentedUnits"), 3n);
    assert.equal(chain.balance(ADDRESSES.storageRegistry), 3n * UNIT_PRICE);
  });

  it("refunds an overpayment to the sender and keeps the price", async () => {
    const chain = fundedChain();
    const { result } = await chain.send({
      from: alice.address,
      to: "idGateway",
      functionName: "register",
      args: [zeroAddress],
      value: UNIT_PRICE + 1000n,
    });
    assert.deepEqual(result, [1n, 1000n]);
    assert.equal(chain.balance(alice.address), ETHER - UNIT_PRICE);
    assert.equal(chain.balance(ADDRESSES.idGateway), 0n);
    assert.equal(chain.balance(ADDRESSES.storageRegistry), UNIT_PRICE);
  });

  it("reverts InvalidPayment on underpayment and HasId for a second fid", async () => {
    const chain = fundedChain();
    const short = chain.send({
      from: alice.address,
      to: "idGateway",
      functionName: "register",
      args: [zeroAddress],
      value: UNIT_PRICE - 1n,
    });
    assert.deepEqual(await revertOf(short, "idGateway"), { errorName: "InvalidPayment", args: [] });
    assert.equal(chain.balance(alice.address), ETHER, "a revert keeps nothing");
    const register = {
      from: alice.address,
      to: "idGateway",
      functionName: "register",
      value: UNIT_PRICE,
    } as const;
    await chain.send({ ...register, args: [zeroAddress] });
    assert.deepEqual(await revertOf(chain.send({ ...register, args: [zeroAddress] }), "idRegistry"), {
      errorName: "HasId",
      args: [],
    });
  });

  it("registers for a signer with a relayer paying and refunded", async () => {
    const chain = fundedChain();
    const deadline = chain.deadline();
    const sig = await signed(
      bob.signer.signRegister({ to: bob.address, recovery: alice.address, nonce: 0n, deadline }),
    );
    const registerFor = {
      from: relayer.address,
      to: "idGateway",
      functionName: "registerFor",
      args: [bob.address, alice.address, deadline, sig, 1n],
      value: 2n * UNIT_PRICE + 5n,
    } as const;
    const { result, logs } = await chain.send(registerFor);
    assert.deepEqual(result, [1n, 5n]);
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.eventName),
      ["Register", "Rent"],
    );
    assert.equal(await chain.read("idRegistry", "custodyOf", [1n]), bob.address);
    assert.equal(await chain.read("idGateway", "nonces", [bob.address]), 1n);
    assert.equal(chain.balance(relayer.address), ETHER - 2n * UNIT_PRICE);
    assert.equal(chain.balance(bob.address), ETHER);

    // The same signature again: the nonce moved on, so it no longer verifies.
    const reused = chain.send({ ...registerFor, args: [bob.address, alice.address, deadline, sig, 1n] });
    assert.deepEqual(await revertOf(reused, "idGateway"), { errorName: "InvalidSignature", args: [] });
  });

  it("checks registerFor's signature before anything else", async () => {
    const chain = fundedChain();
    const deadline = chain.deadline();
    const byAlice = await signed(
      alice.signer.signRegister({ to: bob.address, recovery: zeroAddress, nonce: 0n, deadline }),
    );
    const base = {
      from: relayer.address,
      to: "idGateway",
      functionName: "registerFor",
      value: UNIT_PRICE,
    } as const;
    const wrongSigner = chain.send({ ...base, args: [bob.address, zeroAddress, deadline, byAlice] });
    assert.deepEqual(await revertOf(wrongSigner, "idGateway"), { errorName: "InvalidSignature", args: [] });

    const past = chain.timestamp - 1n;
    const expiredSig = await signed(
      bob.signer.signRegister({ to: bob.address, recovery: zeroAddress, nonce: 0n, deadline: past }),
    );
    const expired = chain.send({ ...base, args: [bob.address, zeroAddress, past, expiredSig], value: 0n });
    assert.deepEqual(await revertOf(expired, "idGateway"), { errorName: "SignatureExpired", args: [] });

    const atDeadline = await signed(
      bob.signer.signRegister({
        to: bob.address,
        recovery: zeroAddress,
        nonce: 0n,
        deadline: chain.timestamp,
      }),
    );
    const { result } = await chain.send({
      ...base,
      args: [bob.address, zeroAddress, chain.timestamp, atDeadline],
    });
    assert.deepEqual(result, [1n, 0n], "a deadline equal to the block time passes");
    assert.equal(chain.balance(relayer.address), ETHER - UNIT_PRICE);
  });

  it("simulates a registration in eth_call: the result, nothing kept", async () => {
    const chain = fundedChain();
    const result = await chain.simulate({
      from: alice.address,
      to: "idGateway",
      functionName: "register",
      args: [bob.address],
      value: UNIT_PRICE + 7n,
    });
    assert.deepEqual(result, [1n, 7n]);
    assert.equal(await chain.read("idRegistry", "idCounter"), 0n);
    assert.equal(chain.balance(alice.address), ETHER);
  });

  it("reverts without data for unknown selectors, value to non-payable functions and bad calldata", async () => {
    const chain = fundedChain();
    await assertEmptyRevert(chain.sendRaw(alice.address, ADDRESSES.idRegistry, "0x12345678"));
    await assertEmptyRevert(chain.sendRaw(alice.address, ADDRESSES.idRegistry, "0x"));
    await assertEmptyRevert(chain.sendRaw(alice.address, ADDRESSES.keyRegistry, "0x", 1n));
    await assertEmptyRevert(
      chain.send({
        from: alice.address,
        to: "idRegistry",
        functionName: "idOf",
        args: [alice.address],
        value: 1n,
      }),
    );
    const truncated = encodeFunctionData({
      abi: ABIS.idGateway,
      functionName: "register",
      args: [bob.address],
    });
    await assertEmptyRevert(
      chain.sendRaw(alice.address, ADDRESSES.idGateway, truncated.slice(0, 20) as `0x${string}`),
    );
    assert.equal(chain.balance(alice.address), ETHER);
  });

  it("refuses plain ether: Unauthorized from the IdGateway and the Bundler", async () => {
    const chain = fundedChain();
    for (const to of [ADDRESSES.idGateway, ADDRESSES.bundler]) {
      const plain = chain.sendRaw(alice.address, to, "0x", 1n);
      assert.deepEqual(await revertOf(plain, "idGateway"), { errorName: "Unauthorized", args: [] });
    }
  });

  it("knows its contract addresses", () => {
    for (const address of Object.values(ADDRESSES)) assert.ok(isContractAddress(address));
    assert.ok(isContractAddress(ADDRESSES.keyRegistry.toLowerCase() as `0x${string}`));
    assert.ok(!isContractAddress(alice.address));
  });
});
