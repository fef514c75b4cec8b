#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { StartupError } from "../http/index.js";
import { START_OPTIONS, UsageError, parseStartOptions, usageErrorOf } from "./options.js";
import { startStack } from "./stack.js";

const LABELS = { registry: "registry  ", hub: "hub       ", api: "client API", chain: "devchain  " } as const;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

const MAIN_HELP = `castnet: the whole open social protocol stack on your machine

Usage:
  castnet start [options]                     run registry, hub, client API and devchain
  castnet account create [--units N]          make a dev account: custody key, fid, storage, signer
  castnet key-request approve <token> --fid N --custody-key 0x...
                                              approve a signed key request as the user
  castnet --help | --version

Run "castnet start --help" for the options of start.`;

function startHelp(): string {
  const lines = Object.entries(START_OPTIONS).map(([name, spec]) => {
    const flag = `  --${name} <value>`.padEnd(26);
    const dflt = spec.default !== undefined ? ` (default ${spec.default})` : "";
    return `${flag}${spec.help}${dflt}\n${" ".repeat(26)}env ${spec.env}`;
  });
  return `Usage: castnet start [options]

Starts the name registry, hub, client API and devchain in one process, each on its own port,
with embedded SQLite databases in the data directory, or in PostgreSQL when DATABASE_URL is set.

Options:
${lines.join("\n")}
  DATABASE_URL             postgres://... to keep every part in one PostgreSQL database`;
}

async function runStart(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) return void console.log(startHelp());
  const config = parseStartOptions(args);
  const stack = await startStack(config);
  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `SQLite in ${config.dataDir}`;
  console.log(
    `castnet ${version()} is running; data: ${where}; naming: ${config.naming}; network: ${config.network}`,
  );
  for (const [part, url] of Object.entries(stack.urls))
    console.log(`  ${LABELS[part as keyof typeof LABELS]}  ${url}`);
  if (stack.hubGrpc !== undefined) console.log(`  hub gRPC    ${stack.hubGrpc}`);
  console.log("Press Ctrl+C to stop.");

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping castnet…`);
    stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`castnet: error while stopping: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

async function runAccount(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== "create")
    throw new UsageError(`unknown command "account ${sub ?? ""}" (try: castnet account create)`);
  const { values } = parseArgs({
    args: rest,
    options: {
      units: { type: "string", default: "1" },
      "chain-url": { type: "string", default: process.env.CASTNET_CHAIN_URL ?? "http://127.0.0.1:2284" },
      "admin-token": { type: "string", default: process.env.CASTNET_ADMIN_TOKEN },
    },
    strict: true,
  });
  const units = Number(values.units);
  if (!Number.isInteger(units) || units < 1 || units > 1000)
    throw new UsageError("--units must be a whole number from 1 to 1000");
  const { createAccount } = await import("./account.js");
  const account = await createAccount({
    chainUrl: values["chain-url"]!,
    units,
    adminToken: values["admin-token"],
  });
  console.log(JSON.stringify(account, null, 2));
}

async function runKeyRequest(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== "approve")
    throw new UsageError(`unknown command "key-request ${sub ?? ""}" (try: castnet key-request approve)`);
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      fid: { type: "string" },
      "custody-key": { type: "string" },
      "api-url": { type: "string", default: process.env.CASTNET_API_URL ?? "http://127.0.0.1:2282" },
    },
    strict: true,
    allowPositionals: true,
  });
  const token = positionals[0];
  if (!token)
    throw new UsageError(
      "give the request's token: castnet key-request approve <token> --fid N --custody-key 0x...",
    );
  const fid = Number(values.fid);
  if (!Number.isInteger(fid) || fid < 1) throw new UsageError("--fid must be the approving user's fid");
  const key = values["custody-key"];
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new UsageError("--custody-key must be the user's 32-byte custody private key in 0x hex");
  const { approveKeyRequest } = await import("./keyRequest.js");
  const result = await approveKeyRequest({
    apiUrl: values["api-url"]!,
    token,
    fid,
    custodyPrivateKey: key as `0x${string}`,
  });
  console.log(JSON.stringify(result, null, 2));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case undefined:
    case "--help":
    case "-h":
    case "help":
      return void console.log(MAIN_HELP);
    case "--version":
    case "-v":
      return void console.log(version());
    case "start":
      return runStart(args);
    case "account":
      return runAccount(args);
    case "key-request":
      return runKeyRequest(args);
    default:
      throw new UsageError(`unknown command "${command}" (see castnet --help)`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof StartupError) {
    console.error(`castnet: ${error.message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    console.error(`castnet: ${usageErrorOf(error, "castnet --help").message}`);
    process.exit(2);
  }
  console.error(`castnet: ${message}`);
  if (process.env.CASTNET_DEBUG) console.error(error);
  process.exit(1);
});
