/**
 * The everyday commands as a user runs them: each a child process against a real stack, going
 * through the parts' public HTTP APIs; results read back from the parts themselves.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { castnet, castnetRunning, errorLines, json } from "./run.js";
import { FREE_PORTS } from "../support/ports.js";

const HASH = /^0x[0-9a-f]{40}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const KEY = /^0x[0-9a-f]{64}$/;
const HEX = (length: number) => `0x[0-9a-f]{${length}}`;
/** stdout's lines, once the command succeeded. */
const lines = (run: { status: number | null; stdout: string; stderr: string }): string[] => {
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trimEnd().split("\n");
};

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the everyday commands", () => {
  let stack: RunningStack;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let url: Record<"registry" | "hub" | "api" | "chain", string>;
  const run = (...args: string[]) => castnet(env, ...args);
  const hub = async <T>(path: string): Promise<T> => (await (await fetch(url.hub + path)).json()) as T;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-everyday-"));
    const config = parseStartOptions(
      [...["--data-dir", join(dir, "stack"), "--block-time", "0"], ...FREE_PORTS],
      {},
    );
    stack = await startStack(config, createLogger("silent"));
    url = stack.urls as typeof url;
    env = {
      CASTNET_DATA_DIR: join(dir, "cli"),
      CASTNET_HUB_URL: url.hub,
      CASTNET_REGISTRY_URL: url.registry,
      CASTNET_API_URL: url.api,
      CASTNET_CHAIN_URL: url.chain,
    };
  });

  after(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let alice: { custodyAddress: string; signerPublicKey: string };
  let bob: { custodyAddress: string };

  it("creates accounts on the devchain and keeps them by name in a file only its owner reads", async () => {
    const keystore = join(dir, "cli", "keystore.json");
    alice = json(await run("account", "create", "alice", "--json"));
    assert.match(alice.custodyAddress, ADDRESS);
    assert.match(alice.signerPublicKey, KEY);
    assert.deepEqual(alice, {
      name: "alice",
      fid: 1,
      custodyAddress: alice.custodyAddress,
      signerPublicKey: alice.signerPublicKey,
      current: false,
      storageUnits: 1,
      // 100 ETH: the default --dev-balance, as no run file names this stack's.
      balance: "100000000000000000000",
      keystore,
    });
    const created = json(await run("account", "create", "bob", "--units", "2", "--json"));
    assert.equal(created.fid, 2);
    bob = { custodyAddress: String(created.custodyAddress) };
    assert.equal(statSync(keystore).mode & 0o777, 0o600);

    const listed = json<{ accounts: { name: string; fid: number }[] }>(
      await run("account", "list", "--json"),
    );
    assert.deepEqual(
      listed.accounts.map((a) => [a.name, a.fid]),
      [
        ["alice", 1],
        ["bob", 2],
      ],
    );
    // Neither has a name at the hub yet: each is its fid.
    assert.deepEqual(lines(await run("account", "list")), [
      `  alice            fid 1  ${alice.custodyAddress}`,
      `  bob              fid 2  ${bob.custodyAddress}`,
    ]);
    const shown = json(await run("account", "show", "alice", "--json"));
    assert.equal(shown.custodyPrivateKey, undefined);
    const revealed = json(await run("account", "show", "alice", "--reveal", "--json"));
    assert.match(String(revealed.custodyPrivateKey), KEY);
    assert.match(String(revealed.signerPrivateKey), KEY);
  });

  it("asks which account acts when there are several, and refuses an unknown one", async () => {
    const several = await run("cast", "hi");
    assert.equal(several.status, 2);
    assert.deepEqual(errorLines(several), [
      "castnet: several accounts (alice, bob): choose one with --as <name> or castnet account use <name>",
    ]);
    const unknown = await run("cast", "hi", "--as", "zed");
    assert.equal(unknown.status, 2);
    assert.deepEqual(errorLines(unknown), [
      `castnet: no account named "zed" in ${join(dir, "cli", "keystore.json")} (see castnet account list)`,
    ]);
    const use = await run("account", "use", "alice");
    assert.equal(use.stdout, "account alice now acts by default\n");
  });

  it("registers a name at the registry and makes it the username at the hub", async () => {
    const registered = json(await run("name", "register", "alice", "--json"));
    assert.match(String(registered.hash), HASH);
    assert.deepEqual(registered, { name: "alice", fid: 1, transferId: 1, hash: registered.hash });
    const data = await hub<{ messages: { data: { userDataBody: { type: string; value: string } } }[] }>(
      "/v1/userDataByFid?fid=1",
    );
    assert.deepEqual(
      data.messages.map((m) => m.data.userDataBody),
      [{ type: "USER_DATA_TYPE_USERNAME", value: "alice" }],
    );
    const shown = json<{ timestamp: number }>(await run("name", "show", "alice", "--json"));
    assert.deepEqual(shown, {
      name: "alice",
      fid: 1,
      owner: alice.custodyAddress.toLowerCase(),
      transferId: 1,
      timestamp: shown.timestamp,
    });
    assert.deepEqual(lines(await run("name", "show", "alice")), [
      `alice: @alice (fid 1), owner ${alice.custodyAddress.toLowerCase()}, since ${new Date(shown.timestamp * 1000).toISOString()} (transfer 1)`,
    ]);

    const taken = await run("name", "register", "alice", "--as", "bob");
    assert.equal(taken.status, 1);
    assert.deepEqual(errorLines(taken), [
      "castnet: the registry refused: Validation failure: USERNAME_TAKEN (another fid holds the name)",
    ]);
    const badName = await run("name", "register", "Bob", "--as", "bob");
    assert.equal(badName.status, 1);
    assert.deepEqual(errorLines(badName), [
      "castnet: the registry refused: Validation failure: INVALID_USERNAME (a name is 1 to 16 lowercase letters, digits and hyphens, not starting with a hyphen)",
    ]);
    const moved = await run("name", "transfer", "alice", "--to", "bob");
    assert.equal(moved.status, 1);
    assert.match(
      errorLines(moved).join("\n"),
      /^castnet: the registry refused: only its admins move a name between fids \(castnet start --registry-admin 1=0x[0-9a-fA-F]{40} makes this account one\)$/,
    );
    const unknown = await run("name", "show", "nobody");
    assert.equal(unknown.status, 1);
    assert.deepEqual(errorLines(unknown), ["castnet: nobody is not registered"]);
  });

  let first: string;

  it("casts with a mention where @name stood, an embed, a reply and a channel, and shows the feed", async () => {
    const cast = json(
      await run(
        "cast",
        "hello @bob, welcome",
        "--mention",
        "bob",
        "--embed",
        "https://example.com/a",
        "--json",
      ),
    );
    assert.match(String(cast.hash), HASH);
    first = String(cast.castId);
    assert.deepEqual(cast, { fid: 1, hash: cast.hash, castId: `1:${cast.hash}`, text: "hello , welcome" });
    const stored = await hub<{ data: { castAddBody: Record<string, unknown> } }>(
      `/v1/castById?fid=1&hash=${cast.hash}`,
    );
    assert.equal(stored.data.castAddBody.text, "hello , welcome");
    assert.deepEqual(stored.data.castAddBody.mentions, [2]);
    assert.deepEqual(stored.data.castAddBody.mentionsPositions, [6]);
    assert.deepEqual(stored.data.castAddBody.embeds, [{ url: "https://example.com/a" }]);

    const channel = json(await run("channel", "create", "music", "--lead", "alice", "--json"));
    assert.equal(channel.url, "https://castnet.example/channel/music");
    // People by their names at the hub: alice has one, bob only his fid.
    const replied = lines(
      await run("cast", "thanks @alice!", "--mention", "alice", "--as", "bob", "--reply-to", first),
    );
    const reply = { castId: new RegExp(`^cast (2:${HEX(40)}) `).exec(replied[0]!)![1] };
    assert.deepEqual(replied, [
      `cast ${reply.castId} by fid 2`,
      `  in reply to ${first} by @alice (fid 1)`,
      "  mentioning @alice (fid 1)",
    ]);
    const inChannel = json(await run("cast", "now playing", "--channel", String(channel.url), "--json"));

    const feed = json<{
      fid: number;
      casts: { castId: string; time: string; text: string; channel?: string }[];
    }>(await run("feed", "alice", "--json"));
    // Newest first in the hub's order, (timestamp, hash): two casts of one second go by their hashes.
    const newestFirst = [
      [inChannel.castId, "now playing", "https://castnet.example/channel/music"],
      [first, "hello , welcome", null],
    ];
    const timeOf = (castId: unknown) => feed.casts.find((c) => c.castId === castId)?.time;
    if (timeOf(inChannel.castId) === timeOf(first) && String(inChannel.castId) < first) newestFirst.reverse();
    assert.deepEqual(
      feed.casts.map((c) => [c.castId, c.text, c.channel ?? null]),
      newestFirst,
    );
    const bobs = json<{ casts: { castId: string; replyTo?: string; time: string }[] }>(
      await run("feed", "2", "--json"),
    );
    assert.deepEqual(
      bobs.casts.map((c) => [c.castId, c.replyTo]),
      [[reply.castId, first]],
    );
    // Each mention where it stood, as the explorer shows it: @username, or the fid of one without.
    const shortTime = (castId: unknown) => timeOf(castId)!.replace("T", " ").slice(0, 19);
    const [newest, oldest] = feed.casts.map((c) => c.castId);
    const shownCast = {
      [String(inChannel.castId)]: [
        `${shortTime(inChannel.castId)}  ${inChannel.castId}  in https://castnet.example/channel/music`,
        "  now playing",
      ],
      [first]: [`${shortTime(first)}  ${first}`, "  hello fid 2, welcome", "  [https://example.com/a]"],
    };
    assert.deepEqual(lines(await run("feed", "alice")), [
      "casts of @alice (fid 1), newest first",
      ...shownCast[newest!]!,
      ...shownCast[oldest!]!,
    ]);
    assert.deepEqual(lines(await run("feed", "bob")), [
      "casts of fid 2, newest first",
      `${bobs.casts[0]!.time.replace("T", " ").slice(0, 19)}  ${reply.castId}  ↳ ${first} by @alice (fid 1)`,
      "  thanks @alice!",
    ]);
  });

  it("reacts, follows, sets the profile and verifies an address, as the hub then serves them", async () => {
    const liked = json(await run("react", "like", first, "--as", "bob", "--json"));
    assert.deepEqual(liked, { fid: 2, reaction: "like", target: first, hash: liked.hash });
    const reactions = await hub<{ messages: unknown[] }>("/v1/reactionsByFid?fid=2");
    assert.equal(reactions.messages.length, 1);
    const tookBack = lines(await run("unreact", "like", first, "--as", "bob"));
    assert.match(
      tookBack.join("\n"),
      new RegExp(`^fid 2 took back like on ${first} by @alice \\(fid 1\\) \\(message ${HEX(40)}\\)$`),
    );
    assert.equal((await hub<{ messages: unknown[] }>("/v1/reactionsByFid?fid=2")).messages.length, 0);

    const followed = json(await run("follow", "alice", "--as", "bob", "--json"));
    assert.deepEqual(followed, { fid: 2, followed: 1, hash: followed.hash });
    const links = await hub<{ messages: { data: { linkBody: { targetFid: number } } }[] }>(
      "/v1/linksByFid?fid=2",
    );
    assert.deepEqual(
      links.messages.map((m) => m.data.linkBody.targetFid),
      [1],
    );
    const follows = lines(await run("follow", "2"));
    assert.match(
      follows.join("\n"),
      new RegExp(`^@alice \\(fid 1\\) follows fid 2 \\(message ${HEX(40)}\\)$`),
    );

    const profile = json<{ set: Record<string, { value: string }> }>(
      await run("profile", "set", "--display", "Alice", "--bio", "castnet fan", "--json"),
    );
    assert.deepEqual(Object.keys(profile.set), ["display", "bio"]);
    // The names as they are once the command has set them: the display name just set.
    const setUrl = lines(await run("profile", "set", "--url", "https://alice.example"));
    assert.match(
      setUrl.join("\n"),
      new RegExp(`^set url of Alice @alice \\(fid 1\\) \\(message ${HEX(40)}\\)$`),
    );
    // In the protocol's order of the types, not the order they were set in (the username first).
    assert.deepEqual(json(await run("profile", "show", "alice", "--json")), {
      fid: 1,
      profile: { display: "Alice", bio: "castnet fan", url: "https://alice.example", username: "alice" },
    });
    assert.equal(
      (await run("profile", "show", "1")).stdout,
      "Alice @alice (fid 1)\n  display   Alice\n  bio       castnet fan\n  url       https://alice.example\n  username  alice\n",
    );
    assert.equal((await run("profile", "show", "2")).stdout, "fid 2 has no profile fields\n");

    const verifiedLines = lines(await run("verify", "address"));
    const verified = { address: new RegExp(`^verified (0x[0-9a-fA-F]{40}) `).exec(verifiedLines[0]!)![1] };
    assert.match(
      verifiedLines.join("\n"),
      new RegExp(`^verified ${verified.address} for Alice @alice \\(fid 1\\) \\(message ${HEX(40)}\\)$`),
    );
    assert.deepEqual(lines(await run("account", "list")), [
      `* alice            Alice @alice (fid 1)  ${alice.custodyAddress}`,
      `  bob              fid 2                 ${bob.custodyAddress}`,
    ]);
    const verifications = await hub<{
      messages: { data: { verificationAddAddressBody: { address: string } } }[];
    }>("/v1/verificationsByFid?fid=1");
    assert.deepEqual(
      verifications.messages.map((m) => m.data.verificationAddAddressBody.address),
      [String(verified.address).toLowerCase()],
    );
  });

  it("removes a cast by hash, and refuses what is not a hash", async () => {
    const hash = first.split(":")[1]!;
    const removed = json(await run("cast", "remove", hash, "--json"));
    assert.deepEqual(removed, { fid: 1, removed: hash, hash: removed.hash });
    const bad = await run("cast", "remove", "0x1234");
    assert.equal(bad.status, 2);
    assert.deepEqual(errorLines(bad), ['castnet: "0x1234" is not a message hash (0x and 40 hex digits)']);
    const badTarget = await run("react", "like", "1:nothex");
    assert.equal(badTarget.status, 2);
    assert.deepEqual(errorLines(badTarget), [
      'castnet: "nothex" is not a message hash (0x and 40 hex digits)',
    ]);
  });

  it("adds and lists signers and rents storage on the devchain", async () => {
    const added = json(await run("signer", "add", "--json"));
    assert.match(String(added.signerPublicKey), KEY);
    const listed = json<{ signers: { key: string; inKeystore: boolean }[] }>(
      await run("signer", "list", "--json"),
    );
    assert.deepEqual(listed.signers, [
      { key: alice.signerPublicKey, source: "chain", inKeystore: false },
      { key: added.signerPublicKey, source: "chain", inKeystore: true },
    ]);
    // The new signer signs from now on.
    const cast = lines(await run("cast", "from the new signer"));
    const castId = new RegExp(`^cast (1:${HEX(40)}) by Alice @alice \\(fid 1\\)$`).exec(cast.join("\n"))?.[1];
    assert.ok(castId, cast.join("\n"));
    assert.match(
      lines(await run("cast", "remove", castId)).join("\n"),
      new RegExp(`^removed cast ${castId} by Alice @alice \\(fid 1\\) \\(message ${HEX(40)}\\)$`),
    );
    // A key added by message: it signs casts, within its scopes only.
    const gasless = json(
      await run(
        "signer",
        "add",
        "--gasless",
        "--app",
        "bob",
        "--scopes",
        "cast-add,reaction-add",
        "--ttl",
        "3600",
        "--json",
      ),
    );
    assert.deepEqual(gasless, {
      fid: 1,
      signerPublicKey: gasless.signerPublicKey,
      requestFid: 2,
      scopes: [1, 3],
      ttl: 3600,
      nonce: 1,
    });
    assert.match(lines(await run("cast", "signed by a key added by message")).join("\n"), /^cast 1:/);
    const follow = await run("follow", "bob");
    assert.notEqual(follow.status, 0);
    assert.match(follow.stderr, /message type 5 is not in the scope of the gasless signer/);
    const all = lines(await run("signer", "list"));
    assert.equal(all.length, 3);
    assert.match(
      all[2]!,
      new RegExp(
        `^\\* ${gasless.signerPublicKey} by message \\(app fid 2\\), until \\S+ unless used: cast-add, reaction-add$`,
      ),
    );
    const rented = json(await run("storage", "rent", "2", "--json"));
    assert.deepEqual(rented, { fid: 1, rented: 2, storageUnits: 3, blockNumber: rented.blockNumber });
    // The devchain's commands name the account as the keystore does: they read no hub.
    assert.match(
      lines(await run("storage", "rent", "1")).join("\n"),
      /^rented 1 storage unit\(s\) for alice \(fid 1\); it has 4 \(block \d+\)$/,
    );
  });

  it("lends storage at the hub and takes it back, and says what a lender needs", async () => {
    // alice signs with her key added by message, whose scopes leave loans out.
    const scoped = await run("storage", "lend", "--to", "bob", "--units", "1");
    assert.equal(scoped.status, 1);
    assert.deepEqual(errorLines(scoped), [
      "castnet: the hub refused: message type 15 is not in the scope of the gasless signer",
    ]);
    // bob rents 2 units: on mainnet (the stack's network) a lender rents 1000 of the type it lends.
    const lend = (...args: string[]) => run("storage", "lend", "--as", "bob", ...args);
    const short = await lend("--to", "alice", "--units", "1");
    assert.equal(short.status, 1);
    assert.deepEqual(errorLines(short), [
      "castnet: the hub refused: insufficient storage: a lender keeps a unit of the type it lends spare, and on mainnet rents at least 1000 of it (castnet storage rent)",
    ]);
    json(await run("storage", "rent", "1000", "--as", "bob", "--json"));
    const lent = json(await lend("--to", "alice", "--units", "3", "--json"));
    assert.deepEqual(lent, { fid: 2, to: 1, units: 3, unitType: "2024", hash: lent.hash });
    type Limits = { units: number; unitDetails: { unitType: string; borrowedUnitSize: number }[] };
    const borrowed = await hub<Limits>("/v1/storageLimitsByFid?fid=1");
    assert.equal(borrowed.units, 7);
    assert.equal(borrowed.unitDetails.find((d) => d.unitType === "UNIT_TYPE_2024")?.borrowedUnitSize, 3);
    const none = await lend("--to", "alice", "--units", "1", "--unit-type", "2025");
    assert.equal(none.status, 1);
    assert.match(errorLines(none)[0]!, /^castnet: the hub refused: insufficient storage: /);
    const tooMany = await lend("--to", "alice", "--units", "5001");
    assert.equal(tooMany.status, 2);
    assert.deepEqual(errorLines(tooMany), [
      'castnet: --units must be a whole number from 0 to 5000, got "5001"',
    ]);
    // A loan and its withdrawal dated the same second would tie, broken by hash: a second apart.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.match(
      lines(await lend("--to", "1", "--units", "0")).join("\n"),
      new RegExp(`^fid 2 takes back the storage lent to Alice @alice \\(fid 1\\) \\(message ${HEX(40)}\\)$`),
    );
    assert.equal((await hub<Limits>("/v1/storageLimitsByFid?fid=1")).units, 4);
  });

  it("runs a signed key request from the app's side and the user's", async () => {
    const created = json<{ token: string; deeplinkUrl: string; state: string; requestFid: number }>(
      await run("key-request", "create", "--app", "bob", "--json"),
    );
    assert.equal(created.state, "pending");
    assert.equal(created.requestFid, 2);
    assert.equal(created.deeplinkUrl, `${url.api}/approve?token=${created.token}`);
    const approved = json(await run("key-request", "approve", created.token, "--as", "alice", "--json"));
    assert.ok(approved.state === "approved" || approved.state === "completed");
    assert.equal(approved.userFid, 1);
    const shown = json(await run("key-request", "show", created.token, "--json"));
    assert.equal(shown.token, created.token);
    assert.deepEqual(lines(await run("key-request", "show", created.token)), [
      `key request ${created.token}: ${shown.state} for Alice @alice (fid 1), key ${shown.key}, by fid 2`,
    ]);
  });

  it("follows channels and lists them", async () => {
    json(await run("channel", "follow", "music", "--as", "bob", "--json"));
    const listed = json<{ channels: { id: string; followerCount: number }[] }>(
      await run("channel", "list", "--json"),
    );
    assert.deepEqual(
      listed.channels.map((c) => [c.id, c.followerCount]),
      [["music", 1]],
    );
  });

  it("tails the hub's events from an id, of the types asked for", async () => {
    const tail = await run(
      "events",
      "tail",
      "--from",
      "0",
      "--type",
      "MERGE_USERNAME_PROOF",
      "--count",
      "1",
      "--json",
    );
    assert.equal(tail.status, 0, tail.stderr);
    const events = tail.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    assert.deepEqual(
      events.map((e) => e.type),
      ["HUB_EVENT_TYPE_MERGE_USERNAME_PROOF"],
    );
    const human = await run(
      "events",
      "tail",
      "--from",
      "0",
      "--type",
      "MERGE_USERNAME_PROOF",
      "--count",
      "1",
    );
    assert.match(lines(human).join("\n"), /^\d+ {2}MERGE_USERNAME_PROOF {2}Alice @alice \(fid 1\) alice$/);
  });

  it("names people in the event stream by the names they take while it runs", async () => {
    const log = await hub<{ events: { id: number }[] }>("/v1/events?from_event_id=0&pageSize=1000");
    const next = log.events.at(-1)!.id + 1;
    const tail = castnetRunning(
      env,
      ...["events", "tail", "--from", String(next), "--type", "MERGE_MESSAGE", "--count", "3"],
    );
    json(await run("cast", "before a name", "--as", "bob", "--json"));
    // bob is named once the tail has shown his cast: by his fid, as he has no name yet.
    const deadline = Date.now() + 30_000;
    while (!tail.stdout().includes("\n") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    json(await run("profile", "set", "--display", "Bob", "--as", "bob", "--json"));
    json(await run("cast", "after a name", "--as", "bob", "--json"));
    const shown = lines(await tail.exited).map((line) =>
      line.replace(/^\d+/, "<id>").replace(/0x[0-9a-f]{40}$/, "<hash>"),
    );
    assert.deepEqual(shown, [
      "<id>  MERGE_MESSAGE  fid 2 MESSAGE_TYPE_CAST_ADD <hash>",
      "<id>  MERGE_MESSAGE  Bob (fid 2) MESSAGE_TYPE_USER_DATA_ADD <hash>",
      "<id>  MERGE_MESSAGE  Bob (fid 2) MESSAGE_TYPE_CAST_ADD <hash>",
    ]);
  });

  it("rotates the client API's Quick Auth signing key as its operator", async () => {
    type Rotated = { keys: { kid: string; signsFrom: number; retiredAt?: number }[] };
    const served = async () =>
      (
        (await (await fetch(`${url.api}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }
      ).keys.map((key) => key.kid);
    const first = json<Rotated>(await run("quick-auth", "rotate-key", "--json"));
    assert.deepEqual(
      await served(),
      first.keys.map((key) => key.kid),
    );
    const old = first.keys.at(-1)!.kid;
    const rotated = lines(await run("quick-auth", "rotate-key"));
    const iso = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.000Z";
    assert.equal(rotated.length, 2, rotated.join("\n"));
    assert.match(
      rotated[0]!,
      new RegExp(
        `^key ${old}: signs until ${iso}, then stays in the key set an hour, until its tokens expire$`,
      ),
    );
    const fresh = new RegExp(`^new key ([0-9a-f-]{36}): signs from ${iso}$`).exec(rotated[1]!)![1]!;
    assert.deepEqual(await served(), [old, fresh]);
  });

  it("says in one line that castnet is not running when a part cannot be reached", async () => {
    const port = await closedPort();
    const result = await run("feed", "7", "--hub-url", `http://127.0.0.1:${port}`);
    assert.equal(result.status, 1);
    assert.deepEqual(errorLines(result), [
      `castnet: cannot reach the hub at http://127.0.0.1:${port}: is castnet running?`,
    ]);
    const chain = await run("account", "create", "carol", "--chain-url", `http://127.0.0.1:${port}`);
    assert.equal(chain.status, 1);
    assert.deepEqual(errorLines(chain), [
      `castnet: cannot reach the devchain at http://127.0.0.1:${port}: is castnet running?`,
    ]);
  });
});
