import { after, before } from "node:test";
import { type Hex, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ActivitySource, HubProfile } from "../../src/interfaces/activity.js";
import type { ClientApi, ClientApiOptions } from "../../src/clientapi/index.js";
import type { Devchain } from "../../src/devchain/index.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import type { TestEngine } from "../support/databases.js";
import { startTestStack } from "../support/stack.js";

/**
 * A small but real ActivitySource for tests: the reaction facts are kept in an array and counted the
 * way the hub counts them (distinct reactors per author, since a time, self-reactions ignored); the
 * profiles sign-ins report are set by the test. The hub's own implementation is tested in test/hub.
 */
export class ReactionLog implements ActivitySource {
  readonly reactions: { reactor: number; author: number; at: number }[] = [];
  readonly profiles = new Map<number, HubProfile>();
  calls: number[] = [];

  react(reactor: number, author: number, at: number): void {
    this.reactions.push({ reactor, author, at });
  }

  async reactorsByAuthor(sinceUnixSeconds: number): Promise<Map<number, number>> {
    this.calls.push(sinceUnixSeconds);
    const reactors = new Map<number, Set<number>>();
    for (const { reactor, author, at } of this.reactions) {
      if (at < sinceUnixSeconds || reactor === author) continue;
      const set = reactors.get(author) ?? new Set<number>();
      set.add(reactor);
      reactors.set(author, set);
    }
    return new Map([...reactors].map(([author, set]) => [author, set.size]));
  }

  async profileOf(fid: number): Promise<HubProfile> {
    return this.profiles.get(fid) ?? { verifications: [] };
  }
}

export interface Harness {
  api: ClientApi;
  devchain: Devchain;
  activity: ReactionLog;
  url: string;
  apiDatabase: DatabaseConfig;
  /** Starts another client API on the same database (a restart, or a second process). */
  restart(options?: Partial<ClientApiOptions>): Promise<ClientApi>;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<ClientApiOptions> {
  /** Devchain block time; the default is long, so tests mine by hand with `devchain.chain.mine()`. */
  blockTimeSeconds?: number;
}

/** A listening client API over a real devchain, its activity read from a `ReactionLog`. */
export async function startHarness(engine: TestEngine, options: HarnessOptions = {}): Promise<Harness> {
  const { blockTimeSeconds = 3600, ...clientapi } = options;
  const activity = new ReactionLog();
  const stack = await startTestStack(engine, {
    parts: ["clientapi"],
    chain: { blockTimeSeconds },
    clientapi: { activity, ...clientapi },
    listen: ["clientapi"],
  });
  return {
    api: stack.clientapi,
    devchain: stack.chain,
    activity,
    url: stack.urls.clientapi!,
    apiDatabase: stack.databases.clientapi,
    restart: (more) => stack.startClientApi(more),
    close: () => stack.close(),
  };
}

export interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Speaks JSON over HTTP to `base`; `body` may be a raw string to send malformed JSON. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

export const errorOf = (message: string) => ({ errors: [{ message }] });

export interface Wallet {
  account: PrivateKeyAccount;
  privateKey: Hex;
  fid: number;
}

/** A fid registered (and mined) on the devchain with a fresh viem custody account, as an app or a user has. */
export async function registerWallet(devchain: Devchain): Promise<Wallet> {
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  const { fid } = await devchain.chain.submitRegister({ custody: account.address });
  await devchain.chain.mine();
  return { account, privateKey, fid };
}

export function randomKey(): Hex {
  return `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`;
}

/** The clock of the domain tests' client API (Unix seconds): fixed, so that answers can be written out in full. */
export const NOW = 1_750_000_000;

/** A client API under test and the two ways the domain tests speak to it. */
export interface Api {
  readonly harness: Harness;
  get(path: string): Promise<Reply>;
  /** Any method, for the operator's routes (loopback, no token) and public writes alike. */
  send(method: string, path: string, body?: unknown): Promise<Reply>;
}

function apiOf(harness: () => Harness): Api {
  return {
    get harness() {
      return harness();
    },
    get: (path) => call(harness().url, "GET", path),
    send: (method, path, body) => call(harness().url, method, path, body),
  };
}

/**
 * One client API (clock at NOW) for the tests of the calling describe, started before them and
 * closed after them. Each test makes the state it reads under ids and fids no other test uses, so
 * that it passes alone (`--test-name-pattern`) as well as beside the others; a test that reads a whole
 * list takes a client API of its own (`withApi`).
 */
export function sharedApi(engine: TestEngine, options: HarnessOptions = {}): Api {
  let harness: Harness | undefined;
  before(async () => {
    harness = await startHarness(engine, { now: () => NOW * 1000, ...options });
  });
  after(() => harness?.close());
  return apiOf(() => harness!);
}

/** Runs `use` against a client API of its own (clock at NOW), empty at first, and closes it after. */
export async function withApi<T>(engine: TestEngine, use: (api: Api) => Promise<T>): Promise<T> {
  const harness = await startHarness(engine, { now: () => NOW * 1000 });
  try {
    return await use(apiOf(() => harness));
  } finally {
    await harness.close();
  }
}
