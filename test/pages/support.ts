/**
 * The browser tests' stack and browser: the whole stack as `castnet start` composes it (on free
 * ports, SQLite in a temporary data directory), accounts made with the CLI's own account code and kept
 * in its keystore, messages built and signed by the reference library as an app would, and one
 * headless Chromium (the distribution's package) per test file.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@farcaster/core";
import { type Browser, type Page, chromium } from "playwright-core";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createAccount } from "../../src/stack/account.js";
import { Keystore, type StoredAccount } from "../../src/wallet/keystore.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { seedOnStart } from "../../src/cli/seedOnStart.js";
import { createLogger } from "../../src/http/index.js";
import { FREE_PORTS } from "../support/ports.js";

export const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(import.meta.dirname, "../../test-artifacts/pages");
const MAINNET = core.FarcasterNetwork.MAINNET;

export type Urls = Record<"registry" | "hub" | "api" | "chain", string>;

export interface PagesStack {
  stack: RunningStack;
  urls: Urls;
  dataDir: string;
  close(): Promise<void>;
}

export async function startPagesStack(extraArgs: readonly string[] = []): Promise<PagesStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "castnet-pages-"));
  const config = parseStartOptions(
    [...["--data-dir", dataDir, "--block-time", "0"], ...FREE_PORTS, ...extraArgs],
    {},
  );
  const stack = await startStack(config, createLogger("silent"), { afterListen: seedOnStart(config) });
  return {
    stack,
    urls: stack.urls as Urls,
    dataDir,
    close: async () => {
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface User extends StoredAccount {
  name: string;
  signer: core.NobleEd25519Signer;
}

/** An account of the stack's keystore (the demo world's, or one made by createUser), with its signer. */
export function keystoreUser(stack: PagesStack, name: string): User {
  const account = new Keystore(stack.dataDir).get(name);
  const signer = new core.NobleEd25519Signer(bytes(account.signerPrivateKey!));
  return { ...account, name, signer };
}

/** A development account, as `castnet account create <name>` makes and keeps it. */
export async function createUser(stack: PagesStack, name: string): Promise<User> {
  const details = await createAccount({ chainUrl: stack.urls.chain, units: 1 });
  new Keystore(stack.dataDir).add(name, {
    fid: details.fid,
    custodyAddress: details.custodyAddress,
    custodyPrivateKey: details.custodyPrivateKey,
    signerPublicKey: details.signerPublicKey,
    signerPrivateKey: details.signerPrivateKey,
  });
  return keystoreUser(stack, name);
}

function unwrap<T>(result: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): unknown }): T {
  if (!result.isOk()) throw new Error(String(result._unsafeUnwrapErr()));
  return result._unsafeUnwrap();
}

export async function submit(stack: PagesStack, message: core.Message): Promise<{ hash: string }> {
  const response = await fetch(`${stack.urls.hub}/v1/submitMessage`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: core.Message.encode(message).finish(),
  });
  const body = await response.text();
  assert.equal(response.status, 200, body);
  return JSON.parse(body) as { hash: string };
}

export interface CastInput {
  text: string;
  embeds?: string[];
  mentions?: number[];
  mentionsPositions?: number[];
  parent?: { fid: number; hash: string };
  parentUrl?: string;
}

/** A cast by `fid` signed with `signer`; the hub's stored hash comes back. */
export async function cast(
  stack: PagesStack,
  fid: number,
  signer: core.Signer,
  input: CastInput,
): Promise<string> {
  const body = {
    text: input.text,
    embeds: (input.embeds ?? []).map((url) => ({ url })),
    embedsDeprecated: [],
    mentions: input.mentions ?? [],
    mentionsPositions: input.mentionsPositions ?? [],
    type: core.CastType.CAST,
    parentCastId: input.parent && { fid: input.parent.fid, hash: bytes(input.parent.hash) },
    parentUrl: input.parentUrl,
  };
  const message = unwrap(await core.makeCastAdd(body, { fid, network: MAINNET }, signer));
  return (await submit(stack, message)).hash;
}

/** A profile field of `user` (core.UserDataType), as a client sets it. */
export async function setUserData(
  stack: PagesStack,
  user: User,
  type: core.UserDataType,
  value: string,
): Promise<void> {
  const message = unwrap(
    await core.makeUserDataAdd({ type, value }, { fid: user.fid, network: MAINNET }, user.signer),
  );
  await submit(stack, message);
}

export interface KeyRequest {
  token: string;
  deeplinkUrl: string;
  state: string;
  userFid?: number;
}

/** A signed key request by `app` for a fresh key, as an app's backend makes one, and that key. */
export async function createKeyRequest(
  stack: PagesStack,
  app: { fid: number; custodyPrivateKey: Hex },
  ttlSeconds = 3600,
): Promise<{ request: KeyRequest; key: core.NobleEd25519Signer }> {
  const key = new core.NobleEd25519Signer(crypto.getRandomValues(new Uint8Array(32)));
  const keyBytes = unwrap(await key.getSignerKey());
  const deadline = Math.floor(Date.now() / 1000) + ttlSeconds;
  const signature = unwrap(
    await new core.ViemLocalEip712Signer(privateKeyToAccount(app.custodyPrivateKey)).signKeyRequest({
      requestFid: BigInt(app.fid),
      key: keyBytes,
      deadline: BigInt(deadline),
    }),
  );
  const response = await fetch(`${stack.urls.api}/v2/signed-key-requests`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      key: `0x${Buffer.from(keyBytes).toString("hex")}`,
      requestFid: app.fid,
      deadline,
      signature: `0x${Buffer.from(signature).toString("hex")}`,
    }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const { result } = (await response.json()) as { result: { signedKeyRequest: KeyRequest } };
  return { request: result.signedKeyRequest, key };
}

export async function readKeyRequest(stack: PagesStack, token: string): Promise<KeyRequest> {
  const response = await fetch(`${stack.urls.api}/v2/signed-key-request?token=${token}`);
  return ((await response.json()) as { result: { signedKeyRequest: KeyRequest } }).result.signedKeyRequest;
}

export function bytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** Saves a full-page screenshot of `page` under test-artifacts/pages/ (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The serious and critical accessibility violations axe-core finds on the page. Its source is run
 * through page.evaluate: the pages' Content-Security-Policy rightly refuses an injected script tag.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 3).join(", ")}`);
}
