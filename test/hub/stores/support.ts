import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { TestEngine } from "../../support/databases.js";
import {
  type core,
  get,
  hex,
  mergeEventOf,
  newAccount,
  protocolNow,
  startStack,
  submit,
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
  /**
   * Merges two messages of one set key and timestamp, the smaller hash first: the larger must delete
   * it and refuse it afterwards as a conflict. Returns the larger, which the store must now hold.
   */
  tieBrokenByHash(a: core.Message, b: core.Message): Promise<core.Message>;
  /** The fid's [limit, used] of the store named as storageLimitsByFid names it ("LINKS"). */
  storeLimit(fid: number, name: string): Promise<[number, number]>;
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
  const deletedBy = async (message: core.Message): Promise<string[]> =>
    (await mergeEventOf(started(stack, "stack"), message)).mergeMessageBody.deletedMessages.map(
      (m: Json) => m.hash,
    );
  return {
    get stack() {
      return started(stack, "stack");
    },
    get alice() {
      return started(alice, "account");
    },
    base,
    deletedBy,
    async tieBrokenByHash(a, b) {
      const hub = started(stack, "stack");
      const [low, high] = [a, b].sort((x, y) => Buffer.compare(Buffer.from(x.hash), Buffer.from(y.hash)));
      assert.equal((await submit(hub, low!)).status, 200);
      assert.equal((await submit(hub, high!)).status, 200);
      assert.deepEqual(await deletedBy(high!), [hex(low!.hash)]);
      const refused = await submit(hub, low!);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      return high!;
    },
    async storeLimit(fid, name) {
      const limits = (await get(started(stack, "stack"), `/v1/storageLimitsByFid?fid=${fid}`)).body.limits;
      const store = limits.find((l: Json) => l.name === name);
      return [store.limit, store.used];
    },
  };
}
