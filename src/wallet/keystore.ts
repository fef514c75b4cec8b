/**
 * The CLI's accounts, kept by name in `<data dir>/keystore.json` so that no key is pasted twice. The
 * file holds private keys: it is written 0600 in a 0700 directory, through a temporary file and a
 * rename so that a crash never leaves half a keystore.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Hex } from "viem";
import { tightenDirectory } from "../storage/permissions.js";
import { UsageError } from "../usageError.js";

export interface StoredAccount {
  fid: number;
  custodyAddress: Hex;
  custodyPrivateKey: Hex;
  /** The Ed25519 signer the CLI signs messages with; absent for an account imported without one. */
  signerPublicKey?: Hex;
  signerPrivateKey?: Hex;
}

/**
 * What the keystore keeps of an account, whatever else the object given carries (createAccount's
 * details hold its balance as a bigint, its warning, its recovery address).
 */
function stored(account: StoredAccount): StoredAccount {
  const { fid, custodyAddress, custodyPrivateKey, signerPublicKey, signerPrivateKey } = account;
  return signerPublicKey === undefined
    ? { fid, custodyAddress, custodyPrivateKey }
    : { fid, custodyAddress, custodyPrivateKey, signerPublicKey, signerPrivateKey };
}

interface KeystoreFile {
  version: 1;
  /** The account `--as` means when it is not given; set by `account use`. */
  current?: string;
  accounts: Record<string, StoredAccount>;
  /** Keys an app asked users for with `key-request create`, by request token. */
  requestedKeys?: Record<string, RequestedKey>;
}

export interface RequestedKey {
  app: string;
  publicKey: Hex;
  privateKey: Hex;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export class Keystore {
  readonly path: string;
  private data: KeystoreFile;

  constructor(readonly dataDir: string) {
    this.path = join(dataDir, "keystore.json");
    this.data = existsSync(this.path) ? parse(this.path) : { version: 1, accounts: {} };
  }

  names(): string[] {
    return Object.keys(this.data.accounts).sort();
  }

  current(): string | undefined {
    return this.data.current;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.data.accounts, name);
  }

  get(name: string): StoredAccount {
    if (!this.has(name) && Object.hasOwn(this.requestedKeys(), name))
      throw new UsageError(
        `"${name}" is a key request's token: its key signs messages (cast, react, follow, profile set, verify address) for the user who approved it, but this command needs an account of the keystore`,
      );
    if (!this.has(name))
      throw new UsageError(`no account named "${name}" in ${this.path} (see castnet account list)`);
    return this.data.accounts[name]!;
  }

  /** The account named by `--as`, else the one set with `account use`, else the only one. */
  resolve(as: string | undefined): { name: string; account: StoredAccount } {
    const names = this.names();
    const name = as ?? this.data.current ?? (names.length === 1 ? names[0] : undefined);
    if (name === undefined)
      throw new UsageError(
        names.length === 0
          ? "no account yet: create one with castnet account create <name>"
          : `several accounts (${names.join(", ")}): choose one with --as <name> or castnet account use <name>`,
      );
    return { name, account: this.get(name) };
  }

  /** The stored name of the account with this fid, for printing who did what. */
  nameOf(fid: number): string | undefined {
    return this.names().find((name) => this.data.accounts[name]!.fid === fid);
  }

  add(name: string, account: StoredAccount): void {
    checkName(name);
    if (this.has(name)) throw new UsageError(`an account named "${name}" already exists`);
    this.data.accounts[name] = stored(account);
    this.save();
  }

  update(name: string, account: StoredAccount): void {
    this.get(name);
    this.data.accounts[name] = stored(account);
    this.save();
  }

  use(name: string): void {
    this.get(name);
    this.data.current = name;
    this.save();
  }

  /** The keys apps asked for with `key-request create`, by request token. */
  requestedKeys(): Readonly<Record<string, RequestedKey>> {
    return this.data.requestedKeys ?? {};
  }

  keepRequestedKey(token: string, key: RequestedKey): void {
    this.data.requestedKeys = { ...this.data.requestedKeys, [token]: key };
    this.save();
  }

  /** A name for a new account: `account1`, `account2`, … the first one free. */
  freeName(): string {
    for (let n = 1; ; n++) if (!this.has(`account${n}`)) return `account${n}`;
  }

  private save(): void {
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    tightenDirectory(this.dataDir);
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    // writeFileSync's mode is masked by the umask; the keystore must be the owner's only.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}

function checkName(name: string): void {
  if (!NAME.test(name))
    throw new UsageError(
      `account names are 1-32 lowercase letters, digits, "-" or "_", starting with a letter or digit; got "${name}"`,
    );
}

function parse(path: string): KeystoreFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the keystore ${path}: ${(error as Error).message}`);
  }
  const file = data as Partial<KeystoreFile>;
  if (file.version !== 1 || typeof file.accounts !== "object" || file.accounts === null)
    throw new Error(`${path} is not a castnet keystore`);
  return file as KeystoreFile;
}
