/**
 * Hub tests' helpers over the shared test stack (test/support/stack.ts): accounts registered on
 * chain, and messages built and signed by the reference client library.
 */
import * as core from "@farcaster/core";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { Hub, HubOptions } from "../../src/hub/index.js";
import { signAdminTransfer } from "../../src/protocol/eip712/adminTransfer.js";
import { usernameProofTypedData } from "../../src/protocol/eip712/usernameProof.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import type { RegistryOptions } from "../../src/registry/index.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import type { TestEngine } from "../support/databases.js";
import { startTestStack, type TestStack } from "../support/stack.js";

export const DEVNET = 3;

export type Stack = TestStack<"registry" | "hub"> & {
  /** The hub's database. */
  config: DatabaseConfig;
  /** Starts another hub on a database of its own, following the same chain and registry. */
  startSeparateHub(overrides?: Partial<HubOptions>): Promise<Hub>;
};

/** The devchain, the registry and a hub, each mining or following at once. */
export async function startStack(
  engine: TestEngine,
  hub: Partial<HubOptions> = {},
  registry: Partial<RegistryOptions> = {},
): Promise<Stack> {
  const stack = await startTestStack(engine, {
    parts: ["registry", "hub"],
    naming: hub.naming,
    hub,
    registry,
  });
  return {
    ...stack,
    config: stack.databases.hub,
    startSeparateHub: async (overrides = {}) =>
      stack.startHub({ database: await stack.freshDatabase(), ...overrides }),
  };
}

export interface Account {
  fid: number;
  custody: PrivateKeyAccount;
  signer: core.NobleEd25519Signer;
  signerKey: `0x${string}`;
}

function hexKey(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}

/** A signer the reference library signs with, from a fresh random Ed25519 key. */
export async function newSigner(): Promise<{ signer: core.NobleEd25519Signer; key: `0x${string}` }> {
  const signer = new core.NobleEd25519Signer(crypto.getRandomValues(new Uint8Array(32)));
  return { signer, key: hexKey((await signer.getSignerKey())._unsafeUnwrap()) };
}

/** Registers a fid with `units` of storage and one Ed25519 signer, and lets the hub see it. */
export async function newAccount(stack: Pick<Stack, "chain" | "hub">, units = 1): Promise<Account> {
  const custody = privateKeyToAccount(generatePrivateKey());
  const { fid } = await stack.chain.chain.register({ custody: custody.address });
  if (units > 0) await stack.chain.chain.rentStorage(fid, units);
  const { signer, key } = await newSigner();
  await stack.chain.chain.addKey({ fid, key });
  await stack.hub.service.syncChain();
  return { fid, custody, signer, signerKey: key };
}

export function encode(message: core.Message): Uint8Array {
  return core.Message.encode(message).finish();
}

export function unwrap<T>(result: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): unknown }): T {
  if (!result.isOk()) throw new Error(`building a message failed: ${String(result._unsafeUnwrapErr())}`);
  return result._unsafeUnwrap();
}

export function options(account: { fid: number }, timestamp?: number) {
  return timestamp === undefined
    ? { fid: account.fid, network: DEVNET }
    : { fid: account.fid, network: DEVNET, timestamp };
}

export function castBody(text: string, extra: Partial<core.CastAddBody> = {}): core.CastAddBody {
  return { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0, ...extra };
}

export async function castAdd(
  account: Account,
  text: string,
  extra: Partial<core.CastAddBody> = {},
  timestamp?: number,
) {
  return unwrap(await core.makeCastAdd(castBody(text, extra), options(account, timestamp), account.signer));
}

/** Now in protocol seconds (the reference library's clock). */
export function protocolNow(): number {
  return Math.round((Date.now() - 1609459200000) / 1000);
}

/**
 * POSTs a transfer to the registry, signed by `signer` (the custody key, or an admin's key) as a
 * client would sign it.
 */
export async function transferName(
  stack: Stack,
  request: { name: string; from: number; to: number; fid: number; owner: `0x${string}` },
  signer: PrivateKeyAccount,
): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  const claim = { name: request.name, timestamp, owner: request.owner };
  // A user signs the plain claim; an admin (`fid` other than from and to) signs the move it asks for.
  const signature =
    request.fid === request.from || request.fid === request.to
      ? await signer.signTypedData(usernameProofTypedData(NEUTRAL, claim))
      : await signAdminTransfer(signer, { ...request, timestamp });
  const response = await stack.registry.app.inject({
    method: "POST",
    url: "/transfers",
    payload: { ...request, timestamp, signature },
  });
  if (response.statusCode !== 200) throw new Error(`transfer of ${request.name} failed: ${response.body}`);
}

/** Registers `name` for the account at the registry. */
export function registerName(stack: Stack, account: Account, name: string): Promise<void> {
  const owner = account.custody.address;
  return transferName(stack, { name, from: 0, to: account.fid, fid: account.fid, owner }, account.custody);
}

/**
 * Signs data the library's builders would refuse (a timestamp far in the future, say) the way a
 * client library does it: hash of the encoded data, Ed25519 signature over the hash.
 */
export async function signedByHand(account: Account, data: Partial<core.MessageData>): Promise<core.Message> {
  const full = core.MessageData.create(data);
  const dataBytes = core.MessageData.encode(full).finish();
  const hash = unwrap(await core.makeMessageHash(full));
  const signature = unwrap(await account.signer.signMessageHash(hash));
  const signer = unwrap(await account.signer.getSignerKey());
  return core.Message.create({
    data: full,
    hash,
    hashScheme: 1,
    signature,
    signatureScheme: 1,
    signer,
    dataBytes,
  });
}

export { core };

/** A verification of a fresh Ethereum address for the account, claimed and signed as a wallet would. */
export async function verificationAdd(
  account: Account,
  wallet = privateKeyToAccount(generatePrivateKey()),
  timestamp?: number,
) {
  const eip712 = new core.ViemLocalEip712Signer(wallet);
  const address = core.hexStringToBytes(wallet.address)._unsafeUnwrap();
  const blockHash = crypto.getRandomValues(new Uint8Array(32));
  const claim = unwrap(core.makeVerificationAddressClaim(account.fid, address, DEVNET, blockHash, 0));
  const claimSignature = unwrap(await eip712.signVerificationEthAddressClaim(claim));
  const message = unwrap(
    await core.makeVerificationAddEthAddress(
      { address, blockHash, claimSignature, verificationType: 0, chainId: 0, protocol: 0 },
      options(account, timestamp),
      account.signer,
    ),
  );
  return { message, wallet, address };
}

/** JSON as the tests read it: any path, checked by the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** POSTs protobuf bytes to a submit route; returns status and parsed body. */
export async function post(
  stack: Stack | Hub,
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
) {
  const hub = "hub" in stack ? stack.hub : stack;
  const response = await hub.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/octet-stream", ...headers },
    payload: Buffer.from(bytes),
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown>,
    headers: response.headers,
  };
}

export async function get(stack: Stack | Hub, url: string) {
  const hub = "hub" in stack ? stack.hub : stack;
  const response = await hub.app.inject({ method: "GET", url });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, Json>,
    headers: response.headers,
  };
}

export function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}

/** POSTs one message to /v1/submitMessage. */
export async function submit(stack: Stack | Hub, message: core.Message) {
  const response = await post(stack, "/v1/submitMessage", encode(message));
  return { ...response, body: response.body as Record<string, Json> };
}

/** The whole event log, page by page. */
export async function allEvents(stack: Stack | Hub): Promise<Json[]> {
  const events: Json[] = [];
  for (let from = 0; ;) {
    const page = (await get(stack, `/v1/events?from_event_id=${from}`)).body;
    events.push(...page.events);
    if (page.events.length < 100) return events;
    from = page.nextPageEventId;
  }
}

/** The MERGE_MESSAGE event of the message with this hash. */
export async function mergeEventOf(stack: Stack | Hub, message: core.Message): Promise<Json> {
  const events = await allEvents(stack);
  return events.find(
    (e) => e.type === "HUB_EVENT_TYPE_MERGE_MESSAGE" && e.mergeMessageBody.message.hash === hex(message.hash),
  );
}
