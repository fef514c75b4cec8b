/** The keystore: accounts by name, which one acts, and a file only its owner reads. */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Keystore, type StoredAccount } from "../../src/wallet/keystore.js";
import { UsageError } from "../../src/usageError.js";

const account = (fid: number): StoredAccount => ({
  fid,
  custodyAddress: `0x${"11".repeat(20)}`,
  custodyPrivateKey: `0x${"22".repeat(32)}`,
});

const refusal = (message: string) => (error: unknown) =>
  error instanceof UsageError && error.message === message;

describe("the keystore", () => {
  const dir = mkdtempSync(join(tmpdir(), "castnet-keystore-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("says how to begin when it is empty", () => {
    const keystore = new Keystore(join(dir, "a"));
    assert.throws(
      () => keystore.resolve(undefined),
      refusal("no account yet: create one with castnet account create <name>"),
    );
  });

  it("acts as the only account, else the one in use, else asks which", () => {
    const data = join(dir, "b");
    const keystore = new Keystore(data);
    keystore.add("alice", account(1));
    assert.equal(keystore.resolve(undefined).name, "alice");
    keystore.add("bob", account(2));
    assert.throws(
      () => keystore.resolve(undefined),
      refusal("several accounts (alice, bob): choose one with --as <name> or castnet account use <name>"),
    );
    keystore.use("bob");
    const reopened = new Keystore(data);
    assert.equal(reopened.resolve(undefined).account.fid, 2);
    assert.equal(reopened.resolve("alice").account.fid, 1);
    assert.throws(
      () => reopened.resolve("carol"),
      refusal(`no account named "carol" in ${join(data, "keystore.json")} (see castnet account list)`),
    );
    assert.equal(reopened.freeName(), "account1");
  });

  it("refuses a second account of the same name and names it cannot keep", () => {
    const keystore = new Keystore(join(dir, "c"));
    keystore.add("alice", account(1));
    assert.throws(
      () => keystore.add("alice", account(2)),
      refusal('an account named "alice" already exists'),
    );
    assert.throws(() => keystore.add("Alice B", account(2)), UsageError);
  });

  it("keeps the file 0600 in a 0700 directory, with no temporary file left", () => {
    const data = join(dir, "d");
    const previous = process.umask(0o022);
    try {
      new Keystore(data).add("alice", account(1));
    } finally {
      process.umask(previous);
    }
    assert.equal(statSync(join(data, "keystore.json")).mode & 0o777, 0o600);
    assert.equal(statSync(data).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(data), ["keystore.json"]);
  });
});
