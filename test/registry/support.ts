import type { Address, Hex, LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Devchain } from "../../src/devchain/index.js";
import { listen } from "../../src/http/index.js";
import { signAdminTransfer } from "../../src/protocol/eip712/adminTransfer.js";
import { NEUTRAL, type NamingProfile } from "../../src/protocol/naming.js";
import type { Registry, RegistryOptions } from "../../src/registry/index.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import type { TestEngine } from "../support/databases.js";
import { startTestStack, type TestStack } from "../support/stack.js";

/** The reference's username-proof domain, written out as a client would (not taken from castnet). */
export const PROOF_CONTRACT: Address = "0xe3be01d99baa8db9905b33a3ca391238234b79d1";
export const CCIP_CONTRACT: Address = "0x00000000000000000000000000000000000cc1b0";

/** The reference's admin fid; castnet has no admin unless one is configured (`Harness.withAdmin`). */
export const ADMIN_FID = 14045;

const TYPES = {
  UserNameProof: [
    { name: "name", type: "string" },
    { name: "timestamp", type: "uint256" },
    { name: "owner", type: "address" },
  ],
} as const;

export function proofTypedData(
  claim: { name: string; timestamp: number; owner: Address },
  {
    naming = NEUTRAL,
    verifyingContract = PROOF_CONTRACT,
  }: { naming?: NamingProfile; verifyingContract?: Address } = {},
) {
  return {
    domain: { name: `${naming.brand} name verification`, version: "1", chainId: 1, verifyingContract },
    types: TYPES,
    primaryType: "UserNameProof" as const,
    message: { name: claim.name, timestamp: BigInt(claim.timestamp), owner: claim.owner },
  };
}

export interface User {
  account: LocalAccount;
  fid: number;
}

export interface HttpReply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A devchain and a listening registry on one test database, with a clock the test moves. */
export class Harness {
  clock = Math.floor(Date.now() / 1000) * 1000;
  readonly serverKey: Hex = generatePrivateKey();
  readonly server = privateKeyToAccount(this.serverKey);
  /** The key of `ADMIN_FID`, a key of its own (the registry refuses the server key as an admin key). */
  readonly admin = privateKeyToAccount(generatePrivateKey());
  readonly withAdmin: Partial<RegistryOptions> = { adminFids: { [ADMIN_FID]: this.admin.address } };
  stack!: TestStack<"registry">;
  devchain!: Devchain;
  registry!: Registry;
  url!: string;
  private startOptions: Partial<RegistryOptions> = {};

  constructor(private readonly engine: TestEngine) {}

  /** Seconds on the registry's clock. */
  get now(): number {
    return Math.floor(this.clock / 1000);
  }

  /** The options every registry of the harness starts with. */
  private get defaults(): Partial<RegistryOptions> {
    return {
      rateLimit: false,
      ccipVerifyingContract: CCIP_CONTRACT,
      signatureThreads: 1,
      now: () => this.clock,
    };
  }

  async start(options: Partial<RegistryOptions> = {}): Promise<this> {
    this.startOptions = { serverPrivateKey: this.serverKey, ...options };
    this.stack = await startTestStack(this.engine, {
      parts: ["registry"],
      registry: { ...this.defaults, ...this.startOptions },
      listen: ["registry"],
    });
    this.devchain = this.stack.chain;
    this.registry = this.stack.registry;
    this.url = this.stack.urls.registry!;
    return this;
  }

  /** A fresh database, dropped by `stop`. */
  database(): Promise<DatabaseConfig> {
    return this.stack.freshDatabase();
  }

  /** Another registry process on the given (or a fresh) database, with none of `start`'s options. */
  async startRegistry(options: Partial<RegistryOptions> = {}): Promise<{ registry: Registry; url: string }> {
    // The stack starts another registry with the first one's options: undo those `start` was given.
    const unset = Object.fromEntries(Object.keys(this.startOptions).map((key) => [key, undefined]));
    const registry = await this.stack.startRegistry({
      ...unset,
      ...this.defaults,
      ...options,
      database: options.database ?? (await this.database()),
    });
    return { registry, url: await listen(registry.app, "registry", "127.0.0.1", 0) };
  }

  stop(): Promise<void> {
    return this.stack.close();
  }

  async user(): Promise<User> {
    const account = privateKeyToAccount(generatePrivateKey());
    const { fid } = await this.devchain.chain.register({ custody: account.address });
    return { account, fid };
  }

  /** A POST /transfers body signed by `signer` (default: the user), as a client builds it. */
  async body(
    signer: LocalAccount,
    fields: { name: string; from: number; to: number; fid?: number; owner?: Address; timestamp?: number },
  ): Promise<Record<string, unknown>> {
    const timestamp = fields.timestamp ?? this.now;
    const owner = fields.owner ?? signer.address;
    const signature = await signer.signTypedData(proofTypedData({ name: fields.name, timestamp, owner }));
    return {
      name: fields.name,
      from: fields.from,
      to: fields.to,
      fid: fields.fid,
      owner,
      timestamp,
      signature,
    };
  }

  /** A POST /transfers body of `ADMIN_FID`, signed as the AdminTransfer it asks for. */
  async adminBody(fields: {
    name: string;
    from: number;
    to: number;
    owner: Address;
    timestamp?: number;
  }): Promise<Record<string, unknown>> {
    const request = { ...fields, fid: ADMIN_FID, timestamp: fields.timestamp ?? this.now };
    return { ...request, signature: await signAdminTransfer(this.admin, request) };
  }

  register(user: User, name: string, timestamp?: number): Promise<HttpReply> {
    return this.body(user.account, { name, from: 0, to: user.fid, fid: user.fid, timestamp }).then((b) =>
      this.post(b),
    );
  }

  unregister(user: User, name: string, timestamp?: number): Promise<HttpReply> {
    return this.body(user.account, { name, from: user.fid, to: 0, fid: user.fid, timestamp }).then((b) =>
      this.post(b),
    );
  }

  post(body: unknown, url = this.url): Promise<HttpReply> {
    return this.send("POST", "/transfers", JSON.stringify(body), url);
  }

  get(path: string, url = this.url): Promise<HttpReply> {
    return this.send("GET", path, undefined, url);
  }

  async send(method: string, path: string, body?: string, url = this.url, contentType = "application/json") {
    const response = await fetch(`${url}${path}`, {
      method,
      body,
      headers: body === undefined ? {} : { "content-type": contentType },
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  }
}

export const failure = (code: string) => ({ error: "Validation failure", code });
