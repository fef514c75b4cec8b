/**
 * startCastnet: the stack in this process on free ports, a cast made through its clients by an
 * account it created, a close() that leaves no listener, no temporary directory and nothing that
 * keeps a process alive; chosen parts; a given data directory; PostgreSQL.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type AccountDetails, type Castnet, type PartName, startCastnet } from "../../src/index.js";
import { fromHex } from "../../src/protocol/hex.js";
import { MessageType, SocialNetwork } from "../../src/protocol/generated/message.js";
import { signMessageData } from "../../src/protocol/message.js";
import { currentProtocolTime } from "../../src/protocol/time.js";
import { testEngines } from "../support/databases.js";

/** Casts `text` as the account and reads the fid's casts back, through the stack's hub client. */
async function castAndRead(castnet: Castnet<"hub">, account: AccountDetails, text: string) {
  const data = {
    type: MessageType.CAST_ADD,
    fid: account.fid,
    timestamp: currentProtocolTime(),
    network: SocialNetwork.MAINNET,
    castAddBody: { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
  };
  await castnet.clients.hub.submitMessage(signMessageData(data, fromHex(account.signerPrivateKey)));
  const page = await castnet.clients.hub.get("/v1/castsByFid", { fid: account.fid });
  return page.messages.map((message) => message.data?.castAddBody?.text);
}

async function refused(url: string): Promise<boolean> {
  return fetch(`${url}/_health`).then(
    () => false,
    () => true,
  );
}

describe("startCastnet", () => {
  it("starts every part on free ports, makes an account that casts, and closes without a trace", async (t) => {
    const castnet = await startCastnet();
    t.after(() => castnet.close());
    const parts = Object.keys(castnet.urls).sort();
    assert.deepEqual(parts, ["api", "chain", "hub", "registry"]);
    assert.deepEqual(Object.keys(castnet.clients).sort(), parts);
    for (const url of Object.values(castnet.urls)) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(
      readdirSync(castnet.dataDir).sort(),
      [
        // Marks the directory in use while the stack runs, so that `castnet reset` refuses it.
        "castnet.run.json",
        // The database the last start used, kept after it stops (`castnet backup` reads it).
        "castnet.last-run.json",
        // Unlocks the keystore on the approval page for this directory's owner (docs/security.md).
        "approval.key",
        // What another client app completing a sign-in channel shows the relay (docs/clientapi.md).
        "relay.key",
        ...["api.sqlite", "chain.sqlite", "hub.sqlite", "registry.sqlite"].flatMap((file) => [
          file,
          `${file}-shm`,
          `${file}-wal`,
        ]),
      ].sort(),
    );

    const account = await castnet.createAccount();
    assert.equal(account.storageUnits, 1);
    const onChain = await castnet.clients.chain.fid(account.fid);
    assert.deepEqual(
      onChain.signers?.map((signer) => signer.key),
      [account.signerPublicKey],
    );
    assert.deepEqual(await castAndRead(castnet, account, "hello from a test suite"), [
      "hello from a test suite",
    ]);

    await castnet.close();
    await castnet.close();
    assert.equal(existsSync(castnet.dataDir), false);
    for (const url of Object.values(castnet.urls)) assert.equal(await refused(url), true, url);
  });

  it("leaves nothing that keeps the process alive once closed", () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-library-"));
    const library = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
    const program = `
      import { startCastnet } from ${JSON.stringify(library)};
      const castnet = await startCastnet();
      const account = await castnet.createAccount();
      await castnet.close();
      console.log("closed after fid", account.fid);
    `;
    // The child exits by itself only if close() left no socket, timer or worker behind.
    writeFileSync(join(dir, "program.mjs"), program);
    const child = spawnSync(process.execPath, ["--import", "tsx", join(dir, "program.mjs")], {
      encoding: "utf8",
      timeout: 120_000,
    });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(child.signal, null, `still running after 120 s: ${child.stderr}`);
    assert.equal(child.stdout, "closed after fid 1\n", child.stderr);
    assert.equal(child.status, 0);
  });

  it("starts chosen parts on a given data directory, which it keeps", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "castnet-library-"));
    try {
      const castnet = await startCastnet({ parts: ["chain", "registry"], dataDir });
      assert.deepEqual(Object.keys(castnet.urls).sort(), ["chain", "registry"]);
      assert.deepEqual(Object.keys(castnet.clients).sort(), ["chain", "registry"]);
      const account = await castnet.createAccount({ units: 2 });
      assert.equal((await castnet.clients.chain.fid(account.fid)).storageUnits, 2);
      assert.equal(typeof (await castnet.clients.registry.currentTime()), "number");
      await castnet.close();
      assert.deepEqual(readdirSync(dataDir).sort(), [
        "castnet.last-run.json",
        "chain.sqlite",
        "registry.sqlite",
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses parts without what they need, leaving no temporary directory", async () => {
    // A private TMPDIR, so that only this start's temporary directory could appear in it.
    const saved = process.env.TMPDIR;
    const privateTmp = mkdtempSync(join(tmpdir(), "castnet-library-"));
    process.env.TMPDIR = privateTmp;
    try {
      await assert.rejects(startCastnet({ parts: ["hub"] as PartName[] }), {
        name: "UsageError",
        message: "--only hub runs the hub without the chain: give --chain-url",
      });
      assert.deepEqual(readdirSync(privateTmp), []);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(privateTmp, { recursive: true, force: true });
    }
  });
});

for (const engine of (await testEngines()).filter((e) => e.engine === "postgres")) {
  describe("startCastnet on PostgreSQL", { skip: engine.skip }, () => {
    it("keeps every part's tables in the database it is given", async (t) => {
      const { config, drop } = await engine.create();
      try {
        assert.equal(config.engine, "postgres");
        const castnet = await startCastnet({ databaseUrl: config.engine === "postgres" ? config.url : "" });
        t.after(() => castnet.close());
        const account = await castnet.createAccount();
        assert.deepEqual(await castAndRead(castnet, account, "on PostgreSQL"), ["on PostgreSQL"]);
        assert.deepEqual(readdirSync(castnet.dataDir).sort(), [
          "approval.key",
          "castnet.last-run.json",
          "castnet.run.json",
          "relay.key",
        ]);
        await castnet.close();
      } finally {
        await drop();
      }
    });
  });
}
