/**
 * IdRegistry's model (docs/reference/contracts.md §3): transfers, recovery-address changes and
 * recoveries with the signatures core's signer makes, their logs in order, nonces, and the
 * signature rules of §2.2.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { concat, keccak256, numberToHex, sliceHex, toHex, zeroAddress, type Address, type Hex } from "viem";
import { ETHER, TestChain, UNIT_PRICE, account, decodedLogs, revertOf, signed } from "./support.js";

const alice = account("alice");
const bob = account("bob");
const carol = account("carol");
const dave = account("dave");
const relayer = account("relayer");

/** A chain where alice holds fid 1 with bob as its recovery address. */
async function chainWithFid(): Promise<TestChain> {
  const chain = new TestChain();
  for (const who of [alice, bob, carol, dave, relayer]) chain.fund(who.address, ETHER);
  await chain.send({
    from: alice.address,
    to: "idGateway",
    functionName: "register",
    args: [bob.address],
    value: UNIT_PRICE,
  });
  return chain;
}

function transferSig(who: ReturnType<typeof account>, to: Address, nonce: bigint, deadline: bigint) {
  return signed(who.signer.signTransfer({ fid: 1n, to, nonce, deadline }));
}

describe("IdRegistry", () => {
  it("transfers a fid to an address that signed for it; the recovery address stays", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const sig = await transferSig(carol, carol.address, 0n, deadline);
    const transfer = {
      from: alice.address,
      to: "idRegistry",
      functionName: "transfer",
      args: [carol.address, deadline, sig],
    } as const;
    const { logs } = await chain.send(transfer);
    assert.deepEqual(decodedLogs(logs), [
      {
        contract: "idRegistry",
        eventName: "Transfer",
        args: { from: alice.address, to: carol.address, id: 1n },
      },
    ]);
    assert.equal(await chain.read("idRegistry", "idOf", [alice.address]), 0n);
    assert.equal(await chain.read("idRegistry", "idOf", [carol.address]), 1n);
    assert.equal(await chain.read("idRegistry", "custodyOf", [1n]), carol.address);
    assert.equal(await chain.read("idRegistry", "recoveryOf", [1n]), bob.address);
    assert.equal(await chain.read("idRegistry", "nonces", [carol.address]), 1n);

    assert.deepEqual(await revertOf(chain.send(transfer), "idRegistry"), { errorName: "HasNoId", args: [] });
    const back = { ...transfer, from: carol.address, args: [carol.address, deadline, sig] } as const;
    assert.deepEqual(await revertOf(chain.send(back), "idRegistry"), { errorName: "HasId", args: [] });
  });

  it("refuses a reused transfer signature and one by the wrong signer", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const byAlice = await transferSig(alice, carol.address, 0n, deadline);
    const send = (sig: Hex) =>
      chain.send({
        from: alice.address,
        to: "idRegistry",
        functionName: "transfer",
        args: [carol.address, deadline, sig],
      });
    assert.deepEqual(await revertOf(send(byAlice), "idRegistry"), {
      errorName: "InvalidSignature",
      args: [],
    });
    assert.equal(await chain.read("idRegistry", "nonces", [carol.address]), 0n, "a revert undoes the nonce");

    // carol cancels her outstanding signature by burning the nonce it used.
    const sig = await transferSig(carol, carol.address, 0n, deadline);
    const { result } = await chain.send({ from: carol.address, to: "idRegistry", functionName: "useNonce" });
    assert.equal(result, 0n);
    assert.deepEqual(await revertOf(send(sig), "idRegistry"), { errorName: "InvalidSignature", args: [] });
  });

  it("transferFor takes the sender's signature, then the recipient's", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const fromSig = await transferSig(alice, carol.address, 0n, deadline);
    const toSig = await transferSig(carol, carol.address, 0n, deadline);
    const call = { from: relayer.address, to: "idRegistry", functionName: "transferFor" } as const;
    const swapped = chain.send({
      ...call,
      args: [alice.address, carol.address, deadline, toSig, deadline, fromSig],
    });
    assert.deepEqual(await revertOf(swapped, "idRegistry"), { errorName: "InvalidSignature", args: [] });
    const { logs } = await chain.send({
      ...call,
      args: [alice.address, carol.address, deadline, fromSig, deadline, toSig],
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => [log.eventName, log.args]),
      [["Transfer", { from: alice.address, to: carol.address, id: 1n }]],
    );
    assert.equal(await chain.read("idRegistry", "nonces", [alice.address]), 1n);
    assert.equal(await chain.read("idRegistry", "nonces", [carol.address]), 1n);
  });

  it("transferAndChangeRecovery logs Transfer, then ChangeRecoveryAddress", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const sig = await signed(
      carol.signer.signTransferAndChangeRecovery({
        fid: 1n,
        to: carol.address,
        recovery: dave.address,
        nonce: 0n,
        deadline,
      }),
    );
    const { logs } = await chain.send({
      from: alice.address,
      to: "idRegistry",
      functionName: "transferAndChangeRecovery",
      args: [carol.address, dave.address, deadline, sig],
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => [log.eventName, log.args]),
      [
        ["Transfer", { from: alice.address, to: carol.address, id: 1n }],
        ["ChangeRecoveryAddress", { id: 1n, recovery: dave.address }],
      ],
    );
    assert.equal(await chain.read("idRegistry", "recoveryOf", [1n]), dave.address);
  });

  it("transferAndChangeRecoveryFor takes both signatures", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const message = { fid: 1n, to: carol.address, recovery: dave.address, nonce: 0n, deadline };
    const fromSig = await signed(alice.signer.signTransferAndChangeRecovery(message));
    const toSig = await signed(carol.signer.signTransferAndChangeRecovery(message));
    const { logs } = await chain.send({
      from: relayer.address,
      to: "idRegistry",
      functionName: "transferAndChangeRecoveryFor",
      args: [alice.address, carol.address, dave.address, deadline, fromSig, deadline, toSig],
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.eventName),
      ["Transfer", "ChangeRecoveryAddress"],
    );
    assert.equal(await chain.read("idRegistry", "custodyOf", [1n]), carol.address);
  });

  it("changes the recovery address, by the custody or with its signature", async () => {
    const chain = await chainWithFid();
    const { logs } = await chain.send({
      from: alice.address,
      to: "idRegistry",
      functionName: "changeRecoveryAddress",
      args: [zeroAddress],
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => [log.eventName, log.args]),
      [["ChangeRecoveryAddress", { id: 1n, recovery: zeroAddress }]],
    );
    const noFid = chain.send({
      from: carol.address,
      to: "idRegistry",
      functionName: "changeRecoveryAddress",
      args: [dave.address],
    });
    assert.deepEqual(await revertOf(noFid, "idRegistry"), { errorName: "HasNoId", args: [] });

    const deadline = chain.deadline();
    const sig = await signed(
      alice.signer.signChangeRecoveryAddress({
        fid: 1n,
        from: zeroAddress,
        to: dave.address,
        nonce: 0n,
        deadline,
      }),
    );
    const changeFor = {
      from: relayer.address,
      to: "idRegistry",
      functionName: "changeRecoveryAddressFor",
      args: [alice.address, dave.address, deadline, sig],
    } as const;
    await chain.send(changeFor);
    assert.equal(await chain.read("idRegistry", "recoveryOf", [1n]), dave.address);
    assert.deepEqual(await revertOf(chain.send(changeFor), "idRegistry"), {
      errorName: "InvalidSignature",
      args: [],
    });
  });

  it("recovers a fid by its recovery address: Recover, then Transfer; the recovery address stays", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const sig = await transferSig(carol, carol.address, 0n, deadline);
    const recover = {
      from: bob.address,
      to: "idRegistry",
      functionName: "recover",
      args: [alice.address, carol.address, deadline, sig],
    } as const;
    const byStranger = chain.send({ ...recover, from: dave.address });
    assert.deepEqual(await revertOf(byStranger, "idRegistry"), { errorName: "Unauthorized", args: [] });
    const { logs } = await chain.send(recover);
    assert.deepEqual(
      decodedLogs(logs).map((log) => [log.eventName, log.args]),
      [
        ["Recover", { from: alice.address, to: carol.address, id: 1n }],
        ["Transfer", { from: alice.address, to: carol.address, id: 1n }],
      ],
    );
    assert.equal(await chain.read("idRegistry", "custodyOf", [1n]), carol.address);
    assert.equal(await chain.read("idRegistry", "recoveryOf", [1n]), bob.address);
    assert.deepEqual(await revertOf(chain.send(recover), "idRegistry"), { errorName: "HasNoId", args: [] });
  });

  it("recoverFor takes the recovery address's signature, then the recipient's", async () => {
    const chain = await chainWithFid();
    const deadline = chain.deadline();
    const recoverySig = await transferSig(bob, carol.address, 0n, deadline);
    const toSig = await transferSig(carol, carol.address, 0n, deadline);
    const { logs } = await chain.send({
      from: relayer.address,
      to: "idRegistry",
      functionName: "recoverFor",
      args: [alice.address, carol.address, deadline, recoverySig, deadline, toSig],
    });
    assert.deepEqual(
      decodedLogs(logs).map((log) => log.eventName),
      ["Recover", "Transfer"],
    );
    assert.equal(await chain.read("idRegistry", "nonces", [bob.address]), 1n);
  });

  it("lets only the IdGateway register", async () => {
    const chain = await chainWithFid();
    const direct = chain.send({
      from: carol.address,
      to: "idRegistry",
      functionName: "register",
      args: [carol.address, zeroAddress],
    });
    assert.deepEqual(await revertOf(direct, "idRegistry"), { errorName: "Unauthorized", args: [] });
  });

  it("verifies a fid's signature: 65 bytes, v 27 or 28, low s", async () => {
    const chain = await chainWithFid();
    const digest = keccak256(toHex("a message"));
    const sig = await alice.account.sign({ hash: digest });
    const verify = (fid: bigint, signature: Hex, custody: Address = alice.address) =>
      chain.read("idRegistry", "verifyFidSignature", [custody, fid, digest, signature]);
    assert.equal(await verify(1n, sig), true);
    assert.equal(await verify(2n, sig), false);
    assert.equal(await verify(1n, sig, carol.address), false);
    // The same signature with its other s (n − s) and flipped v recovers the same key: refused.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(sliceHex(sig, 32, 64));
    const v = Number(BigInt(sliceHex(sig, 64)));
    const highS = concat([
      sliceHex(sig, 0, 32),
      numberToHex(n - s, { size: 32 }),
      numberToHex(v === 27 ? 28 : 27, { size: 1 }),
    ]);
    assert.equal(await verify(1n, highS), false);
    const yParity = concat([sliceHex(sig, 0, 64), numberToHex(v - 27, { size: 1 })]);
    assert.equal(await verify(1n, yParity), false);
    assert.equal(await verify(1n, sliceHex(sig, 0, 64)), false);
  });
});
