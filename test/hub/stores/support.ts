import { after, before } from "node:test";
import type { TestEngine } from "../../support/databases.js";
import {
  type core,
  mergeEventOf,
  newAccount,
  protocolNow,
  startStack,
  type Account,
  type Json,
  type Stack,
} from "../support.js";

/** What a store's tests share: their stack, its first account, a time to date messages from. */
export interface StoreSuite {
  readonly stack: Stack;
  /** An account with a signer and one storage unit, made before the tests (unless `account: false`). */
  readonly alice: Account;
  /** A protocol time 1,000 s ago: messages dated from it are in the past, so the hub takes them. */
  readonly base: number;
  /** The hashes of the messages the merge of `message` deleted, from its merge event. */
  deletedBy(message: core.Message): Promise<string[]>;
}

/**
 * Starts a registry and a hub on `engine` before the calling describe's tests, and an account on
 * them, and closes them after. Tests that need other accounts make them with `newAccount`.
 */
export function storeSuite(engine: TestEngine, options: { account?: boolean } = {}): StoreSuite {
  let stack: Stack | undefined;
  let alice: Account | undefined;
  const base = protocolNow() - 1000;
  before(async () => {
    stack = await startStack(engine);
    if (options.account !== false) alice = await newAccount(stack);
  });
  after(async () => {
    await stack?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`the store suite has no ${what} (before it started, or account: false)`);
    return value;
  };
  return {
    get stack() {
      return started(stack, "stack");
    },
    get alice() {
      return started(alice, "account");
    },
    base,
    deletedBy: async (message) =>
      (await mergeEventOf(started(stack, "stack"), message)).mergeMessageBody.deletedMessages.map(
        (m: Json) => m.hash,
      ),
  };
}
