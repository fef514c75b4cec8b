/**
 * `castnet start --chain-rpc-url`: a hub that follows a chain over Ethereum JSON-RPC, here a
 * devchain of another castnet, gets the chain's events as the in-process hub would.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createLogger } from "../../src/http/index.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { FREE_PORTS } from "../support/ports.js";

const CUSTODY = "0x4444444444444444444444444444444444444444";

describe("a hub following a devchain over JSON-RPC (--chain-rpc-url)", () => {
  const dirs: string[] = [];
  const stacks: RunningStack[] = [];
  let chainUrl: string;
  let hubUrl: string;

  before(async () => {
    const start = async (args: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), "castnet-rpc-follow-"));
      dirs.push(dir);
      const stack = await startStack(
        parseStartOptions(["--data-dir", dir, "--block-time", "0", ...FREE_PORTS, ...args], {}),
        createLogger("silent"),
      );
      stacks.push(stack);
      return stack;
    };
    chainUrl = (await start(["--only", "chain"])).urls.chain!;
    const follower = await start([
      ...["--only", "registry,hub", "--chain-url", chainUrl],
      ...["--chain-rpc-url", chainUrl, "--chain-confirmations", "0"],
    ]);
    hubUrl = follower.urls.hub!;
  });

  after(async () => {
    for (const stack of stacks.reverse()) await stack.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("merges the registration a REST write made, with the chain's block and transaction hash", async () => {
    const registered = await fetch(`${chainUrl}/v1/fids`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ custody: CUSTODY }),
    });
    assert.equal(registered.status, 200);
    const [event] = (
      (await (await fetch(`${chainUrl}/v1/events`)).json()) as { events: { transactionHash: string }[] }
    ).events;
    const deadline = Date.now() + 10_000;
    let found: { transactionHash?: string; fid?: number } | undefined;
    while (Date.now() < deadline) {
      const answer = await fetch(`${hubUrl}/v1/onChainIdRegistryEventByAddress?address=${CUSTODY}`);
      if (answer.status === 200) {
        found = (await answer.json()) as { transactionHash: string; fid: number };
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(found?.fid, 1);
    assert.equal(found?.transactionHash, event!.transactionHash);
  });

  it("refuses --chain-confirmations without --chain-rpc-url", () => {
    assert.throws(
      () => parseStartOptions(["--chain-confirmations", "1"], {}),
      /--chain-first-block and --chain-confirmations go with --chain-rpc-url/,
    );
  });
});
