/**
 * The protocol's onboarding as its official guide writes it, with viem and @farcaster/core's ABIs,
 * addresses and EIP-712 signer, pointed at the devchain's JSON-RPC: an app fid through
 * IdGateway.register, a user's fid, key and storage in one Bundler.register, KeyGateway.add,
 * StorageRegistry.rent; the reverts viem names; an auth-address key; a hub following the chain
 * that then accepts the user's casts signed by the key; and the fid moved by IdRegistry.transfer
 * and taken back by its recovery address.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  type Hex,
  http,
  parseEther,
  toHex,
  bytesToHex,
  hexToBytes,
  keccak256,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { optimism } from "viem/chains";
import { testEngines } from "../support/databases.js";
import { startTestStack, type TestStack } from "../support/stack.js";

/** The contracts as viem takes them: address and ABI, both as the library exports them. */
const idGateway = { address: core.ID_GATEWAY_ADDRESS, abi: core.idGatewayABI } as const;
const idRegistry = { address: core.ID_REGISTRY_ADDRESS, abi: core.idRegistryABI } as const;
const keyGateway = { address: core.KEY_GATEWAY_ADDRESS, abi: core.keyGatewayABI } as const;
const keyRegistry = { address: core.KEY_REGISTRY_ADDRESS, abi: core.keyRegistryABI } as const;
const storageRegistry = { address: core.STORAGE_REGISTRY_ADDRESS, abi: core.storageRegistryABI } as const;
const bundler = { address: core.BUNDLER_ADDRESS, abi: core.bundlerABI } as const;

const account = (name: string) => privateKeyToAccount(keccak256(toHex(name)));
const app = account("onboarding app");
const user = account("onboarding user");
const recovery = account("onboarding recovery");
const ed25519 = new core.NobleEd25519Signer(hexToBytes(keccak256(toHex("onboarding ed25519 key"))));
let signerPublicKey: Hex;

async function ok<T>(result: Promise<{ isOk(): boolean; _unsafeUnwrap(): T }>): Promise<T> {
  const value = await result;
  assert.ok(value.isOk());
  return value._unsafeUnwrap();
}

function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError
    ? (reverted.data?.errorName ?? reverted.signature)
    : undefined;
}

for (const engine of await testEngines()) {
  describe(`the official onboarding against the devchain on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: TestStack<"registry" | "hub">;
    let rpc: string;
    const publicClient = () => createPublicClient({ chain: optimism, transport: http(rpc) });
    const wallet = (who: ReturnType<typeof account>) =>
      createWalletClient({ chain: optimism, transport: http(rpc), account: who });
    let deadline: bigint;
    let userFid: bigint;

    before(async () => {
      stack = await startTestStack(engine, { parts: ["registry", "hub"], listen: ["devchain", "hub"] });
      rpc = stack.urls.devchain!;
      for (const who of [app, user])
        await publicClient().request({
          method: "castnet_setBalance" as never,
          params: [who.address, toHex(parseEther("1"))] as never,
        });
      deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
      signerPublicKey = bytesToHex(await ok(ed25519.getSignerKey()));
    });
    after(() => stack?.close());

    it("registers the app's fid through IdGateway.register at its price", async () => {
      const client = publicClient();
      const price = await client.readContract({
        ...idGateway,
        functionName: "price",
      });
      const hash = await wallet(app).writeContract({
        ...idGateway,
        functionName: "register",
        args: [recovery.address],
        value: price,
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success");
      assert.equal(
        await client.readContract({
          ...idRegistry,
          functionName: "idOf",
          args: [app.address],
        }),
        1n,
      );
      const underpaid = wallet(user).writeContract({
        ...idGateway,
        functionName: "register",
        args: [recovery.address],
        value: price - 1n,
      });
      await assert.rejects(underpaid, (error) => revertName(error) === "InvalidPayment");
    });

    it("registers the user with a key and storage in one Bundler.register, Register first in the receipt", async () => {
      const client = publicClient();
      const userSigner = new core.ViemLocalEip712Signer(user);
      const appSigner = new core.ViemLocalEip712Signer(app);
      const registerSig = await ok(
        userSigner.signRegister({ to: user.address, recovery: recovery.address, nonce: 0n, deadline }),
      );
      const metadata = await ok(
        appSigner.getSignedKeyRequestMetadata({ requestFid: 1n, key: hexToBytes(signerPublicKey), deadline }),
      );
      const addSig = await ok(
        userSigner.signAdd({
          owner: user.address,
          keyType: 1,
          key: hexToBytes(signerPublicKey),
          metadataType: 1,
          metadata: bytesToHex(metadata),
          nonce: 0n,
          deadline,
        }),
      );
      const price = await client.readContract({
        ...bundler,
        functionName: "price",
        args: [1n],
      });
      const registration = {
        to: user.address,
        recovery: recovery.address,
        deadline,
        sig: bytesToHex(registerSig),
      };
      const signers = [
        {
          keyType: 1,
          key: signerPublicKey,
          metadataType: 1,
          metadata: bytesToHex(metadata),
          deadline,
          sig: bytesToHex(addSig),
        },
      ];
      const hash = await wallet(user).writeContract({
        ...bundler,
        functionName: "register",
        args: [registration, signers, 1n],
        value: price,
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success");
      const [first] = receipt.logs;
      assert.equal(first?.address.toLowerCase(), core.ID_REGISTRY_ADDRESS.toLowerCase());
      userFid = await client.readContract({
        ...idRegistry,
        functionName: "idOf",
        args: [user.address],
      });
      assert.equal(userFid, 2n);

      // The same Register signature again: its nonce is used.
      const replayed = wallet(app).writeContract({
        ...bundler,
        functionName: "register",
        args: [registration, [], 0n],
        value: price,
      });
      await assert.rejects(replayed, (error) => revertName(error) !== undefined);
    });

    it("adds an auth address with KeyGateway.add, read back by keyDataOf as auth-client reads it", async () => {
      const client = publicClient();
      const authKey = encodeAbiParameters([{ type: "address" }], [user.address]);
      const appSigner = new core.ViemLocalEip712Signer(app);
      const metadata = await ok(
        appSigner.getSignedKeyRequestMetadata({ requestFid: 1n, key: hexToBytes(authKey), deadline }),
      );
      const add = () =>
        wallet(user).writeContract({
          ...keyGateway,
          functionName: "add",
          args: [2, authKey, 1, bytesToHex(metadata)],
        });
      await client.waitForTransactionReceipt({ hash: await add() });
      assert.deepEqual(
        await client.readContract({
          ...keyRegistry,
          functionName: "keyDataOf",
          args: [userFid, authKey],
        }),
        { state: 1, keyType: 2 },
      );
      await assert.rejects(add(), (error) => revertName(error) === "InvalidState");
    });

    it("rents more storage through StorageRegistry.rent", async () => {
      const client = publicClient();
      const unitPrice = await client.readContract({
        ...storageRegistry,
        functionName: "unitPrice",
      });
      const hash = await wallet(user).writeContract({
        ...storageRegistry,
        functionName: "rent",
        args: [userFid, 1n],
        value: unitPrice,
      });
      assert.equal((await client.waitForTransactionReceipt({ hash })).status, "success");
    });

    it("the hub follows the chain: its events match the logs one for one, and it takes the user's casts", async () => {
      const hub = stack.urls.hub!;
      const logs = await publicClient().getLogs({
        address: [core.ID_REGISTRY_ADDRESS, core.KEY_REGISTRY_ADDRESS, core.STORAGE_REGISTRY_ADDRESS],
        fromBlock: 0n,
      });
      const deadlineMs = Date.now() + 10_000;
      let events: unknown[] = [];
      for (;;) {
        const queries = [1, 2].flatMap((fid) =>
          ["EVENT_TYPE_SIGNER", "EVENT_TYPE_ID_REGISTER", "EVENT_TYPE_STORAGE_RENT"].map(
            (type) => `${hub}/v1/onChainEventsByFid?fid=${fid}&event_type=${type}`,
          ),
        );
        const answers = await Promise.all(
          queries.map(async (url) => (await (await fetch(url)).json()) as { events?: unknown[] }),
        );
        events = answers.flatMap((answer) => answer.events ?? []);
        if (events.length >= logs.length || Date.now() > deadlineMs) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(events.length, logs.length);

      const cast = await core.makeCastAdd(
        { text: "onboarded", embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
        { fid: Number(userFid), network: core.FarcasterNetwork.DEVNET },
        ed25519,
      );
      const response = await fetch(`${hub}/v1/submitMessage`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: core.Message.encode(cast._unsafeUnwrap()).finish(),
      });
      assert.equal(response.status, 200, await response.text());
    });

    it("moves the user's fid with IdRegistry.transfer, its recovery address takes it back, and the hub follows both", async () => {
      const hub = stack.urls.hub!;
      const newOwner = account("onboarding new owner");
      await publicClient().request({
        method: "castnet_setBalance" as never,
        params: [recovery.address, toHex(parseEther("1"))] as never,
      });
      const nonceOf = (who: Hex) =>
        publicClient().readContract({ ...idRegistry, functionName: "nonces", args: [who] });
      const custodyOf = () =>
        publicClient().readContract({ ...idRegistry, functionName: "custodyOf", args: [userFid] });
      /** The hub's latest id-registry event for an address, once it is a transfer (it follows the chain a moment later). */
      const hubTransferTo = async (address: Hex) => {
        const until = Date.now() + 10_000;
        for (;;) {
          const answer = await fetch(`${hub}/v1/onChainIdRegistryEventByAddress?address=${address}`);
          const event =
            answer.status === 200
              ? ((await answer.json()) as {
                  fid: number;
                  idRegisterEventBody: { eventType: string; to: string };
                })
              : undefined;
          const seen = event && {
            fid: event.fid,
            type: event.idRegisterEventBody.eventType,
            to: event.idRegisterEventBody.to,
          };
          if (seen?.type === "ID_REGISTER_EVENT_TYPE_TRANSFER" || Date.now() > until) return seen;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };

      const transfer = await ok(
        new core.ViemLocalEip712Signer(newOwner).signTransfer({
          fid: userFid,
          to: newOwner.address,
          nonce: await nonceOf(newOwner.address),
          deadline,
        }),
      );
      const moved = await wallet(user).writeContract({
        ...idRegistry,
        functionName: "transfer",
        args: [newOwner.address, deadline, bytesToHex(transfer)],
      });
      assert.equal((await publicClient().waitForTransactionReceipt({ hash: moved })).status, "success");
      assert.equal((await custodyOf()).toLowerCase(), newOwner.address.toLowerCase());
      assert.deepEqual(await hubTransferTo(newOwner.address), {
        fid: Number(userFid),
        type: "ID_REGISTER_EVENT_TYPE_TRANSFER",
        to: newOwner.address.toLowerCase(),
      });

      // The recovery address takes the fid back to the user, who signs to receive it.
      const receive = await ok(
        new core.ViemLocalEip712Signer(user).signTransfer({
          fid: userFid,
          to: user.address,
          nonce: await nonceOf(user.address),
          deadline,
        }),
      );
      const recovered = await wallet(recovery).writeContract({
        ...idRegistry,
        functionName: "recover",
        args: [newOwner.address, user.address, deadline, bytesToHex(receive)],
      });
      assert.equal((await publicClient().waitForTransactionReceipt({ hash: recovered })).status, "success");
      assert.equal((await custodyOf()).toLowerCase(), user.address.toLowerCase());
      assert.deepEqual(await hubTransferTo(user.address), {
        fid: Number(userFid),
        type: "ID_REGISTER_EVENT_TYPE_TRANSFER",
        to: user.address.toLowerCase(),
      });

      // Only the recovery address may recover: the user's own try reverts with the contract's error.
      const refused = await wallet(user)
        .writeContract({
          ...idRegistry,
          functionName: "recover",
          args: [user.address, newOwner.address, deadline, bytesToHex(transfer)],
        })
        .then(
          () => undefined,
          (error: unknown) => revertName(error),
        );
      assert.equal(refused, "Unauthorized");
    });

    it("keeps castnet_setBalance from a web page of another site", async () => {
      const response = await fetch(rpc, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://evil.example" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "castnet_setBalance",
          params: [app.address, "0x1"],
        }),
      });
      const body = (await response.json()) as { error?: { code: number; message: string } };
      assert.equal(body.error?.code, -32000);
      assert.match(body.error!.message, /castnet_setBalance is an operator method/);
    });
  });
}
