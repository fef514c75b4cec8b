/**
 * The package as a user gets it: `npm pack` (which runs prepare, the build), the tarball installed
 * into a fresh project, and a program there that starts castnet, creates an account, casts and reads
 * the cast back through castnet/client and castnet/protocol. Each step's time is reported.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "castnet-pack-"));
after(() => rmSync(work, { recursive: true, force: true }));

const PROGRAM = `
import { startCastnet } from "castnet";
import { HubResponseError } from "castnet/client";
import { MessageType, SocialNetwork, signMessageData } from "castnet/protocol";

const castnet = await startCastnet();
try {
  const account = await castnet.createAccount();
  const data = {
    type: MessageType.CAST_ADD,
    fid: account.fid,
    timestamp: Math.floor((Date.now() - 1609459200000) / 1000),
    network: SocialNetwork.MAINNET,
    castAddBody: { text: "packed", embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
  };
  const key = Uint8Array.from(Buffer.from(account.signerPrivateKey.slice(2), "hex"));
  await castnet.clients.hub.submitMessage(signMessageData(data, key));
  for await (const message of castnet.clients.hub.messages("/v1/castsByFid", { fid: account.fid }))
    console.log(message.data.fid, message.data.castAddBody.text);
  await castnet.clients.hub.get("/v1/castById", { fid: account.fid, hash: "0x" + "00".repeat(20) }).catch((error) =>
    console.log(error instanceof HubResponseError, error.status, error.message),
  );
} finally {
  await castnet.close();
}
`;

function timed<T>(steps: string[], name: string, run: () => T): T {
  const start = performance.now();
  const result = run();
  steps.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

it("packs, installs into a fresh project and runs a program there", (t) => {
  const steps: string[] = [];
  const run = (command: string, args: string[], cwd: string) =>
    execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

  const packed = timed(steps, "npm pack (prepare builds dist/)", () =>
    run("npm", ["pack", "--pack-destination", work, "--json"], repo),
  );
  const { filename } = (JSON.parse(packed) as { filename: string }[])[0]!;

  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "uses-castnet", private: true, type: "module" }),
  );
  // From npm's cache (CI's npm ci filled it), and without install scripts: better-sqlite3's would
  // download or compile its addon, which the next step takes from this checkout instead.
  timed(steps, "npm install of the tarball", () =>
    run(
      "npm",
      ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", join(work, filename)],
      project,
    ),
  );
  // The repo's better-sqlite3 is the same version (asserted) built for this same Node (same ABI), so
  // its compiled addon is the one the install script would have made.
  const ours = join(repo, "node_modules", "better-sqlite3");
  const theirs = join(project, "node_modules", "better-sqlite3");
  const version = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  assert.equal(version(theirs), version(ours));
  mkdirSync(join(theirs, "build", "Release"), { recursive: true });
  copyFileSync(
    join(ours, "build", "Release", "better_sqlite3.node"),
    join(theirs, "build", "Release", "better_sqlite3.node"),
  );

  for (const entry of ["index", "sdk/index", "protocol/index"])
    assert.ok(existsSync(join(project, "node_modules", "castnet", "dist", `${entry}.d.ts`)), entry);
  assert.equal(existsSync(join(project, "node_modules", "castnet", "LICENSE")), true);

  writeFileSync(join(project, "program.mjs"), PROGRAM);
  const output = timed(steps, "the program", () => run(process.execPath, ["program.mjs"], project));
  assert.equal(output, "1 packed\ntrue 404 cast not found\n");
  t.diagnostic(steps.join(", "));
});
