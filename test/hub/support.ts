/**
 * A real stack for hub tests: the devchain, the registry and the hub on one test database, with
 * accounts registered on chain and messages built and signed by the reference client library.
 */
import { join, dirname } from "node:path";
import * as core from "@farcaster/core";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createDevchain, type Devchain } from "../../src/devchain/index.js";
import { createHub, type Hub, type HubOptions } from "../../src/hub/index.js";
import { createLogger } from "../../src/http/index.js";
import { signAdminTransfer } from "../../src/protocol/eip712/adminTransfer.js";
import { usernameProofTypedData } from "../../src/protocol/eip712/usernameProof.js";
import { NEUTRAL, type NamingProfile } from "../../src/protocol/naming.js";
import { createRegistry, type Registry, type RegistryOptions } from "../../src/registry/index.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import type { TestEngine } from "../support/databases.js";

export const DEVNET = 3;
export const logger = createLogger(process.env.HUB_TEST_LOG === "1" ? "debug" : "silent");

export interface Stack {
  config: DatabaseConfig;
  chain: Devchain;
  registry: Registry;
  hub: Hub;
  /** Starts another hub process on the same database. */
  startHub(overrides?: Partial<HubOptions>): Promise<Hub>;
  /** Starts another hub on a database of its own, following the same chain and registry. */
  startSeparateHub(overrides?: Partial<HubOptions>): Promise<Hub>;
  close(): Promise<void>;
}

/** The other parts get their own file next to the hub's on SQLite, and share the database on PostgreSQL. */
function sibling(config: DatabaseConfig, part: string): DatabaseConfig {
  if (config.engine === "postgres") return config;
  return { engine: "sqlite", path: join(dirname(config.path), `${part}.sqlite`) };
}

export async function startStack(
  engine: TestEngine,
  overrides: Partial<HubOptions> = {},
  registryOptions: Partial<RegistryOptions> = {},
): Promise<Stack> {
  const { config, drop } = await engine.create();
  const naming: NamingProfile = overrides.naming ?? NEUTRAL;
  const chain = await createDevchain({ database: sibling(config, "chain"), logger, blockTimeSeconds: 0 });
  const registry = await createRegistry({
    database: sibling(config, "registry"),
    logger,
    chain: chain.chain,
    naming,
    rateLimit: false,
    signatureThreads: 0,
    ...registryOptions,
  });
  const hubs: Hub[] = [];
  const startHub = async (more: Partial<HubOptions> = {}) => {
    const hub = await createHub({
      database: config,
      logger,
      naming,
      network: "devnet",
      chain: chain.chain,
      registry: registry.feed,
      verifyWorkers: 1,
      ...overrides,
      ...more,
    });
    hubs.push(hub);
    return hub;
  };
  const drops = [drop];
  const startSeparateHub = async (more: Partial<HubOptions> = {}) => {
    const created = await engine.create();
    drops.push(created.drop);
    return startHub({ database: created.config, ...more });
  };
  const hub = await startHub();
  return {
    config,
    chain,
    registry,
    hub,
    startHub,
    startSeparateHub,
    async close() {
      for (const h of hubs) await h.close();
      await registry.close();
      await chain.close();
      for (const d of drops) await d();
    },
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
export async function newAccount(stack: Stack, units = 1): Promise<Account> {
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
