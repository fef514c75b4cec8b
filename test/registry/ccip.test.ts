import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Hex,
  bytesToHex,
  concat,
  decodeFunctionResult,
  encodeFunctionData,
  namehash,
  parseAbi,
  recoverTypedDataAddress,
  stringToBytes,
  zeroAddress,
} from "viem";
import { testEngines } from "../support/databases.js";
import { CCIP_CONTRACT, Harness, type User, proofTypedData } from "./support.js";

const RESOLVER = parseAbi([
  "function resolve(bytes name, bytes data) view returns (string name, uint256 timestamp, address owner, bytes sig)",
  "function multicall(bytes[] data) view returns (bytes[] results)",
  "function addr(bytes32 node) view returns (address)",
]);
const SENDER = "0x145b9934B42F214C101De04b6115285959BDD4F5";
const DAY_MS = 24 * 60 * 60 * 1000;

/** DNS wire format, as ENS's universal resolver sends names. */
function dnsName(name: string): Hex {
  const labels = name.split(".").map((label) => {
    const bytes = stringToBytes(label);
    return concat([bytesToHex(new Uint8Array([bytes.length])), bytesToHex(bytes)]);
  });
  return concat([...labels, "0x00"]);
}

function resolveCall(name: string): Hex {
  const data = encodeFunctionData({ abi: RESOLVER, functionName: "addr", args: [namehash(name)] });
  return encodeFunctionData({ abi: RESOLVER, functionName: "resolve", args: [dnsName(name), data] });
}

function decodeResolve(data: Hex) {
  return decodeFunctionResult({ abi: RESOLVER, functionName: "resolve", data });
}

for (const engine of await testEngines()) {
  describe(`CCIP-read gateway on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    let alice: User;
    let registeredAt: number;

    before(async () => {
      await h.start();
      alice = await h.user();
      const gone = await h.user();
      assert.equal((await h.register(gone, "gone")).status, 200);
      h.clock += 28 * DAY_MS;
      assert.equal((await h.unregister(gone, "gone")).status, 200);
      registeredAt = h.now;
      assert.equal((await h.register(alice, "alice")).status, 200);
    });
    after(() => h.stop());

    const gatewayGet = (callData: string, sender = SENDER) => h.get(`/ccip/${sender}/${callData}.json`);
    const gatewayPost = (body: unknown, path = "/ccip/") => h.send("POST", path, JSON.stringify(body));

    it("resolves <name>.<parent> to the holder, signed afresh under the CCIP domain", async () => {
      const reply = await gatewayGet(resolveCall("alice.service.id"));
      assert.equal(reply.status, 200);
      assert.deepEqual(Object.keys(reply.body), ["data"]);
      const [username, timestamp, owner, sig] = decodeResolve(reply.body.data as Hex);
      assert.deepEqual([username, timestamp, owner], ["alice", BigInt(registeredAt), alice.account.address]);
      const claim = { name: "alice", timestamp: registeredAt, owner: alice.account.address };
      const ccipSigner = await recoverTypedDataAddress({
        ...proofTypedData(claim, { verifyingContract: CCIP_CONTRACT }),
        signature: sig,
      });
      assert.equal(ccipSigner, h.server.address);
      // Not the stored proof: it does not verify under the proof domain.
      assert.notEqual(
        await recoverTypedDataAddress({ ...proofTypedData(claim), signature: sig }),
        h.server.address,
      );
    });

    it("resolves a name whatever its parent domain", async () => {
      const other = decodeResolve((await gatewayGet(resolveCall("alice.example.eth"))).body.data as Hex);
      assert.equal(other[0], "alice");
    });

    it("answers the POST form at /ccip/ and /ccip", async () => {
      for (const path of ["/ccip/", "/ccip"]) {
        const reply = await gatewayPost({ sender: SENDER, data: resolveCall("alice.service.id") }, path);
        assert.equal(reply.status, 200, path);
        assert.equal(decodeResolve(reply.body.data as Hex)[0], "alice");
      }
    });

    it("answers the empty tuple for unknown and unregistered names", async () => {
      for (const name of ["nobody.service.id", "gone.service.id", ""]) {
        const reply = await gatewayGet(resolveCall(name));
        assert.equal(reply.status, 200);
        assert.deepEqual(decodeResolve(reply.body.data as Hex), ["", 0n, zeroAddress, "0x"], name);
      }
    });

    it("answers multicall with each inner call's answer", async () => {
      const data = encodeFunctionData({
        abi: RESOLVER,
        functionName: "multicall",
        args: [[resolveCall("alice.service.id"), resolveCall("nobody.service.id")]],
      });
      const reply = await gatewayPost({ sender: SENDER, data });
      assert.equal(reply.status, 200);
      const [results] = [
        decodeFunctionResult({ abi: RESOLVER, functionName: "multicall", data: reply.body.data as Hex }),
      ];
      assert.equal(results.length, 2);
      assert.equal(decodeResolve(results[0]!)[0], "alice");
      assert.equal(decodeResolve(results[1]!)[0], "");
    });

    it("refuses malformed requests with 400 in its library's shape", async () => {
      const invalid = { message: "Invalid request format" };
      const call = resolveCall("alice.service.id");
      for (const reply of [
        await gatewayGet(call, "0x1234"),
        await gatewayGet("0xzz"),
        await gatewayGet("0x123"),
        await gatewayGet("0x9061b9"),
        await gatewayGet(`${call.slice(0, 80)}`),
        // A DNS label longer than the name.
        await gatewayGet(
          encodeFunctionData({ abi: RESOLVER, functionName: "resolve", args: ["0x0561", "0x"] }),
        ),
        await gatewayPost({ sender: SENDER }),
        await gatewayPost({ sender: SENDER, data: 12 }),
        await h.send("POST", "/ccip/", "{not json"),
      ]) {
        assert.deepEqual([reply.status, reply.body], [400, invalid]);
      }
    });

    it("answers 404 in its library's shape for a function it does not implement", async () => {
      const addr = encodeFunctionData({
        abi: RESOLVER,
        functionName: "addr",
        args: [namehash("alice.service.id")],
      });
      const unknown = await gatewayGet(addr);
      assert.deepEqual(
        [unknown.status, unknown.body],
        [404, { message: "No implementation for function with selector 0x3b3b57de" }],
      );
    });
  });
}
