/**
 * `castnet start --registry-admin fid=0xaddress`: the stack's registry has exactly the admins it is
 * told of, each signing castnet's AdminTransfer, and none by default.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createAccount } from "../../src/stack/account.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { UsageError } from "../../src/usageError.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { signAdminTransfer, signUsernameProof } from "../../src/protocol/eip712/index.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { FREE_PORTS } from "../support/ports.js";

const ADMIN_FID = 20_000;
const admin = privateKeyToAccount(generatePrivateKey());

describe("--registry-admin", () => {
  it("parses fid=address pairs, from the command line or CASTNET_REGISTRY_ADMIN", () => {
    const pair = `7=${admin.address}`;
    assert.deepEqual(
      parseStartOptions(["--registry-admin", `${pair}, 8=${admin.address}`], {}).registryAdmins,
      {
        7: admin.address,
        8: admin.address,
      },
    );
    assert.deepEqual(parseStartOptions([], { CASTNET_REGISTRY_ADMIN: pair }).registryAdmins, {
      7: admin.address,
    });
    assert.deepEqual(parseStartOptions([], {}).registryAdmins, {});
  });

  it("refuses anything but fid=0xaddress pairs with a positive fid", () => {
    for (const bad of ["7", `0=${admin.address}`, "7=0x1234", `x=${admin.address}`]) {
      assert.throws(
        () => parseStartOptions(["--registry-admin", bad], {}),
        (error: unknown) => {
          assert.ok(error instanceof UsageError);
          assert.equal(error.message, `--registry-admin takes fid=0xaddress pairs, got "${bad}"`);
          return true;
        },
      );
    }
  });

  describe("on a running stack", () => {
    let stack: RunningStack;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "castnet-admin-"));
      const config = parseStartOptions(
        [
          "--data-dir",
          dir,
          "--block-time",
          "0",
          "--registry-admin",
          `${ADMIN_FID}=${admin.address}`,
          ...FREE_PORTS,
        ],
        {},
      );
      stack = await startStack(config, createLogger("silent"));
    });
    after(async () => {
      await stack?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const transfer = (body: object) =>
      fetch(`${stack.urls.registry}/transfers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { transfer?: { to: number } } }));

    it("lets the configured admin move a user's name to another fid, and only the configured admin", async () => {
      const account = () => createAccount({ chainUrl: stack.urls.chain!, units: 1 });
      const [alice, bob] = [await account(), await account()];
      const owner = privateKeyToAccount(alice.custodyPrivateKey as Hex);
      const timestamp = Math.floor(Date.now() / 1000);
      const claim = { name: "adminmoved", timestamp, owner: owner.address };
      const registered = await transfer({
        ...claim,
        from: 0,
        to: alice.fid,
        fid: alice.fid,
        signature: await signUsernameProof(owner, NEUTRAL, claim),
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));

      const move = {
        name: "adminmoved",
        from: alice.fid,
        to: bob.fid,
        fid: ADMIN_FID,
        owner: owner.address,
        timestamp,
      };
      const stranger = privateKeyToAccount(generatePrivateKey());
      assert.deepEqual(await transfer({ ...move, signature: await signAdminTransfer(stranger, move) }), {
        status: 400,
        body: { error: "Validation failure", code: "INVALID_SIGNATURE" },
      });
      const moved = await transfer({ ...move, signature: await signAdminTransfer(admin, move) });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.transfer?.to, bob.fid);
    });
  });
});
