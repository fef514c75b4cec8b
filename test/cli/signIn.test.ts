/**
 * `castnet sign-in approve` as a user runs it, against `castnet start` in another process: an app
 * opens a channel with the unchanged `@farcaster/auth-client`, the command approves it with a
 * keystore account's custody key (or --fid and --custody-key), and the app watches it complete and
 * verifies the message against the devchain's JSON-RPC.
 */
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { createAppClient, viemConnector } from "@farcaster/auth-client";
import { castnetForFile } from "../support/castnetProcess.js";
import { type Run, castnet, errorLines, json } from "./run.js";

const DOMAIN = "app.example";
/** The error lines, without the note naming the running castnet the command found. */
const failures = (run: Run) =>
  errorLines(run).filter((line) => !line.startsWith("talking to the castnet running on"));
const SIWE_URI = "https://app.example/login";

describe("castnet sign-in approve", () => {
  const file = castnetForFile("castnet-sign-in-");
  let env: NodeJS.ProcessEnv;
  let app: ReturnType<typeof createAppClient>;
  const run = (...args: string[]) => castnet(env, ...args);

  before(async () => {
    // The stack's own data directory: its keystore, and the relay key the command reads.
    env = { CASTNET_DATA_DIR: join(file.dir(), "stack") };
    const urls = file.castnet().urls;
    app = createAppClient({
      relay: urls["client API"]!,
      ethereum: viemConnector({ rpcUrl: urls.devchain! }),
    });
    json(await run("account", "create", "alice", "--json"));
    json(await run("account", "create", "bob", "--json"));
    json(await run("profile", "set", "--display", "Alice A", "--as", "alice", "--json"));
  });

  it("keeps the relay key in a file only its owner reads", () => {
    const path = join(file.dir(), "stack", "relay.key");
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(readFileSync(path, "utf8"), /^[0-9a-f]{64}\n$/);
  });

  it("approves a channel by its url with --as; the app sees it completed and verifies it", async () => {
    const { data: channel } = await app.createChannel({ siweUri: SIWE_URI, domain: DOMAIN });
    const pending = await app.status({ channelToken: channel.channelToken });
    assert.equal(pending.response.status, 202);
    const approved = await run("sign-in", "approve", channel.url, "--as", "alice");
    assert.equal(approved.status, 0, approved.stderr);
    assert.equal(
      approved.stdout,
      `signed in to ${DOMAIN} as Alice A (fid 1) (custody address); the app sees it at its next status read\n`,
    );
    const watched = await app.watchStatus({
      channelToken: channel.channelToken,
      interval: 100,
      timeout: 10_000,
    });
    assert.equal(watched.isError, false);
    const completed = watched.data!;
    assert.equal(completed.fid, 1);
    assert.equal(completed.displayName, "Alice A");
    assert.equal(completed.authMethod, "custody");
    const verified = await app.verifySignInMessage({
      nonce: channel.nonce,
      domain: DOMAIN,
      message: completed.message!,
      signature: completed.signature!,
    });
    assert.equal(verified.isError, false, String(verified.error));
    assert.equal(verified.fid, 1);
    // The channel completes once.
    const again = await run("sign-in", "approve", channel.channelToken, "--as", "alice");
    assert.equal(again.status, 1);
    assert.deepEqual(failures(again), [
      "castnet: no open sign-in channel has this token: it is unknown, its hour is over, or its completed answer was already delivered",
    ]);
  });

  it("approves by token with --fid and --custody-key, and refuses a key that is not the fid's", async () => {
    const keystore = JSON.parse(readFileSync(join(file.dir(), "stack", "keystore.json"), "utf8")) as {
      accounts: Record<string, { fid: number; custodyPrivateKey: string; custodyAddress: string }>;
    };
    const bob = keystore.accounts.bob!;
    const { data: channel } = await app.createChannel({ siweUri: SIWE_URI, domain: DOMAIN });
    const wrong = await run(
      "sign-in",
      "approve",
      channel.channelToken,
      "--fid",
      "1",
      "--custody-key",
      bob.custodyPrivateKey,
      "--json",
    );
    assert.equal(wrong.status, 1);
    assert.deepEqual(failures(wrong), [
      `castnet: ${bob.custodyAddress} is neither an auth address nor the custody address of fid 1`,
    ]);
    const right = json<{ fid: number; authMethod: string; state: string }>(
      await run(
        "sign-in",
        "approve",
        channel.channelToken,
        "--fid",
        String(bob.fid),
        "--custody-key",
        bob.custodyPrivateKey,
        "--json",
      ),
    );
    assert.deepEqual([right.state, right.fid, right.authMethod], ["completed", bob.fid, "custody"]);
  });
});
