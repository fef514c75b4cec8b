/**
 * castnet/client against a running stack: each client's reads, writes, paging across more than one
 * page and a refusal in its API's error shape, over real HTTP.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import { hexToBytes } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type AccountDetails, createAccount } from "../../src/stack/account.js";
import {
  ClientApiClient,
  ClientApiResponseError,
  DevchainClient,
  DevchainResponseError,
  HubClient,
  HubResponseError,
  RegistryClient,
  RegistryResponseError,
} from "../../src/sdk/index.js";
import { MessageType, SocialNetwork } from "../../src/protocol/generated/message.js";
import { signMessageData } from "../../src/protocol/message.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { usernameProofTypedData } from "../../src/protocol/eip712/usernameProof.js";
import { currentProtocolTime } from "../../src/protocol/time.js";
import { testEngines } from "../support/databases.js";
import { type TestStack, startTestStack } from "../support/stack.js";

const sqlite = (await testEngines()).find((engine) => engine.engine === "sqlite")!;

function castData(fid: number, text: string, timestamp = currentProtocolTime()) {
  return {
    type: MessageType.CAST_ADD,
    fid,
    timestamp,
    network: SocialNetwork.DEVNET,
    castAddBody: { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
  };
}

describe("castnet/client against a running stack", () => {
  let stack: TestStack<"registry" | "hub" | "clientapi">;
  let hub: HubClient;
  let registry: RegistryClient;
  let api: ClientApiClient;
  let chain: DevchainClient;
  let alice: AccountDetails;

  const account = async () => {
    const created = await createAccount({ chainUrl: stack.urls.devchain!, units: 1 });
    await stack.hub.service.syncChain();
    return created;
  };

  before(async () => {
    stack = await startTestStack(sqlite, {
      parts: ["registry", "hub", "clientapi"],
      listen: ["devchain", "registry", "hub", "clientapi"],
    });
    hub = new HubClient(stack.urls.hub!);
    registry = new RegistryClient(stack.urls.registry!);
    api = new ClientApiClient(stack.urls.clientapi!);
    chain = new DevchainClient(stack.urls.devchain!);
    alice = await account();
  });
  after(() => stack?.close());

  describe("RegistryClient", () => {
    it("registers names with signed requests and pages over more than one page of transfers", async () => {
      const users = [];
      for (let i = 0; i < 101; i++) {
        const custody = privateKeyToAccount(generatePrivateKey());
        const { fid } = await stack.chain.chain.register({ custody: custody.address });
        users.push({ custody, fid, name: `sdk${i}` });
      }
      const timestamp = await registry.currentTime();
      for (const { custody, fid, name } of users) {
        const owner = custody.address;
        const signature = await custody.signTypedData(
          usernameProofTypedData(NEUTRAL, { name, timestamp, owner }),
        );
        const transfer = await registry.transfer({
          name,
          from: 0,
          to: fid,
          fid,
          owner,
          timestamp,
          signature,
        });
        assert.equal(transfer.username, name);
      }
      const names = [];
      for await (const transfer of registry.transfers()) names.push(transfer.username);
      assert.deepEqual(
        names,
        users.map((user) => user.name),
      );
      assert.deepEqual((await registry.current({ name: "sdk100" })).to, users[100]!.fid);
    });

    it("throws RegistryResponseError with the registry's error body and status", async () => {
      await assert.rejects(registry.current({ name: "nobody" }), (error: unknown) => {
        assert.ok(error instanceof RegistryResponseError);
        assert.equal(error.status, 404);
        assert.deepEqual(error.body, { error: "No transfer found" });
        assert.equal(error.message, "No transfer found");
        return true;
      });
    });

    it("says what a transfer's code means, and keeps the body as the registry sent it", async () => {
      const request = {
        name: "unsigned",
        from: 0,
        to: alice.fid,
        fid: alice.fid,
        owner: alice.custodyAddress,
      };
      await assert.rejects(
        registry.transfer({
          ...request,
          timestamp: await registry.currentTime(),
          signature: `0x${"11".repeat(65)}`,
        }),
        (error: unknown) => {
          assert.ok(error instanceof RegistryResponseError);
          assert.equal(error.status, 400);
          assert.deepEqual(error.body, { error: "Validation failure", code: "INVALID_SIGNATURE" });
          assert.equal(
            error.message,
            "Validation failure: INVALID_SIGNATURE (the signature is not the owner's)",
          );
          return true;
        },
      );
    });
  });

  describe("HubClient", () => {
    it("submits bytes, a castnet Message and a @farcaster/core Message, and reads them back", async () => {
      const key = hexToBytes(alice.signerPrivateKey);
      const now = currentProtocolTime();
      const fromBytes = signMessageData(castData(alice.fid, "as bytes", now - 3), key);
      const stored = await hub.submitMessage(core.Message.encode(fromBytes as core.Message).finish());
      assert.equal(stored.data?.castAddBody?.text, "as bytes");
      assert.equal(stored.hash, `0x${Buffer.from(fromBytes.hash).toString("hex")}`);

      await hub.submitMessage(signMessageData(castData(alice.fid, "as a castnet Message", now - 2), key));

      const signer = new core.NobleEd25519Signer(key);
      const built = await core.makeCastAdd(
        {
          text: "as a @farcaster/core Message",
          embeds: [],
          embedsDeprecated: [],
          mentions: [],
          mentionsPositions: [],
          type: 0,
        },
        { fid: alice.fid, network: core.FarcasterNetwork.DEVNET, timestamp: now - 1 },
        signer,
      );
      const reference = built._unsafeUnwrap();
      const answer = await hub.submitMessage(reference);
      assert.equal(answer.data?.type, "MESSAGE_TYPE_CAST_ADD");

      const texts = [];
      for await (const message of hub.messages("/v1/castsByFid", { fid: alice.fid, pageSize: 2 }))
        texts.push(message.data?.castAddBody?.text);
      assert.deepEqual(texts, ["as bytes", "as a castnet Message", "as a @farcaster/core Message"]);

      const pages = [];
      for await (const page of hub.pages("/v1/castsByFid", { fid: alice.fid, pageSize: 2, reverse: "true" }))
        pages.push(page.messages.map((message) => message.data?.castAddBody?.text));
      assert.deepEqual(pages, [["as a @farcaster/core Message", "as a castnet Message"], ["as bytes"]]);
    });

    it("iterates the hub events across pages", async () => {
      // The registry test's 101 fids and names, as hub events: more than one page of 100.
      await stack.hub.service.syncChain();
      await stack.hub.service.syncNames();
      const events = [];
      for await (const event of hub.events()) events.push(event);
      const ids = events.map((event) => event.id as number);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      assert.equal(new Set(ids).size, ids.length);
      const merged = events.filter((event) => event.type === "HUB_EVENT_TYPE_MERGE_MESSAGE");
      assert.equal(merged.length, 3);
      assert.ok(events.length > 100, `${events.length} events fill more than one page of 100`);
    });

    it("throws HubResponseError with the hub's error body and status", async () => {
      const missing = hub.get("/v1/castById", { fid: alice.fid, hash: `0x${"00".repeat(20)}` });
      await assert.rejects(missing, (error: unknown) => {
        assert.ok(error instanceof HubResponseError);
        assert.equal(error.status, 404);
        assert.deepEqual(error.body, {
          errCode: "not_found",
          presentable: false,
          name: "HubError",
          code: 5,
          details: "cast not found",
          metadata: { errcode: ["not_found"] },
        });
        assert.equal(error.message, "cast not found");
        return true;
      });
    });
  });

  describe("ClientApiClient", () => {
    it("pages a fid's channels by cursor", async () => {
      for (const id of ["one", "two", "three"]) {
        await api.api.POST("/v1/admin/channels", {
          body: { id, url: `https://example.com/${id}`, name: id, imageUrl: `https://example.com/${id}.png` },
        });
        await api.api.PUT("/v1/admin/channels/{channelId}/followers/{fid}", {
          params: { path: { channelId: id, fid: alice.fid } },
          body: {},
        });
      }
      const pages = [];
      for await (const result of api.pages("/v1/user-following-channels", { fid: alice.fid, limit: 2 }))
        pages.push(result.channels.map((channel) => channel.id));
      assert.deepEqual(pages, [["three", "two"], ["one"]]);
    });

    it("throws ClientApiResponseError with the client API's error body and status", async () => {
      await assert.rejects(api.get("/v1/channel", { channelId: "nope" }), (error: unknown) => {
        assert.ok(error instanceof ClientApiResponseError);
        assert.equal(error.status, 404);
        assert.deepEqual(error.body, { errors: [{ message: 'No channel found with id "nope"' }] });
        assert.equal(error.message, 'No channel found with id "nope"');
        return true;
      });
    });
  });

  describe("DevchainClient", () => {
    it("reads a fid and pages the on-chain events", async () => {
      const fid = await chain.fid(alice.fid);
      assert.equal(fid.custody, alice.custodyAddress);
      assert.equal(fid.storageUnits, 1);
      const events = [];
      for await (const event of chain.events(0, 2)) events.push(event);
      // Alice's id register, storage rent and signer add, then the registry test's 101 fids.
      assert.equal(events.length, 104);
      assert.deepEqual(
        events.slice(0, 3).map((event) => [event.type, event.fid]),
        [
          ["EVENT_TYPE_ID_REGISTER", alice.fid],
          ["EVENT_TYPE_STORAGE_RENT", alice.fid],
          ["EVENT_TYPE_SIGNER", alice.fid],
        ],
      );
    });

    it("throws DevchainResponseError with the devchain's error body and status", async () => {
      await assert.rejects(chain.fid(999_999), (error: unknown) => {
        assert.ok(error instanceof DevchainResponseError);
        assert.equal(error.status, 404);
        assert.deepEqual(error.body, { error: "unknown_fid", message: "fid 999999 is not registered" });
        assert.equal(error.message, "fid 999999 is not registered");
        return true;
      });
    });
  });
});
