/**
 * The hostile-input sweep: the whole stack as `castnet start` composes it, and every route of every
 * part sent a deterministic, seeded set of bad requests over HTTP on 127.0.0.1. The routes and what
 * to send each one are listed by hand in `routes()` below; a test checks that list against the route
 * table each part's Fastify instance records as routes are registered (`routeInventory`, collected
 * in src/http/server.ts and handed out by startStack), so a route missing from it fails by name. The promise under test: every
 * bad input gets a 4xx in that API's own error shape with a sentence a person understands (or a 2xx
 * where the input is in fact acceptable), never a 5xx, never a crash, never a partial write.
 *
 * Writes are watched below HTTP as well as through it: on SQLite each database's `data_version`
 * tells after every request whether anything committed, and a content fingerprint of every table
 * says what changed; a refused request that changed a table is a partial write.
 *
 * Findings (5xx, out-of-shape errors, writes on refused requests) are kept as failing assertions on
 * purpose; each failure lists the exact request and the answer. HOSTILE_LOG=1 prints every request
 * and its answer.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import { blake3 } from "@noble/hashes/blake3.js";
import Database from "better-sqlite3";
import pg from "pg";
import pino from "pino";
import { encodeFunctionData, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type AccountDetails, createAccount } from "../../src/stack/account.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { seedOnStart } from "../../src/cli/seedOnStart.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";

type Part = "registry" | "hub" | "api" | "chain";
type Shape = "registry" | "ccip" | "hub" | "api" | "chain";
type Expect = "refuse" | "either";
const PARTS: readonly Part[] = ["registry", "hub", "api", "chain"];
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// ---------------------------------------------------------------------------------------------
// Determinism: one seeded generator for every "random" byte and choice in this file.

function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (below: number) => Math.floor(next() * below),
    bytes: (length: number) => Uint8Array.from({ length }, () => Math.floor(next() * 256)),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP: node:http, so that any method, header, path byte and body can be sent as it is.

interface Req {
  method: string;
  path: string;
  body?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

interface Reply {
  status: number;
  contentType: string;
  text: string;
}

const agents = new Map<string, http.Agent>();
let requestsSent = 0;

function agentFor(base: string): http.Agent {
  let agent = agents.get(base);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    agents.set(base, agent);
  }
  return agent;
}

function sendOnce(base: string, req: Req, fresh: boolean): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const body =
    req.body === undefined ? undefined : typeof req.body === "string" ? Buffer.from(req.body) : req.body;
  const headers: Record<string, string> = { ...req.headers };
  if (req.contentType !== undefined) headers["content-type"] = req.contentType;
  if (body !== undefined) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        host: hostname,
        port,
        method: req.method,
        path: req.path,
        headers,
        agent: fresh ? false : agentFor(base),
        timeout: 15_000,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("timeout", () => request.destroy(new Error("no answer within 15 s")));
    request.on("error", (error: NodeJS.ErrnoException) => {
      // A server may answer (413, 415) before it has read a large body, then close: the answer counts.
      if (answered) return;
      error.message = `${error.message}${request.reusedSocket ? " (reused socket)" : ""}`;
      reject(error);
    });
    request.end(body);
  });
}

/** One request; a keep-alive socket the server closed meanwhile is retried once on a new connection. */
async function send(base: string, req: Req): Promise<Reply> {
  requestsSent++;
  try {
    return await sendOnce(base, req, false);
  } catch (error) {
    if (/reused socket/.test((error as Error).message)) return sendOnce(base, req, true);
    throw error;
  }
}

/** Raw bytes on a new connection, for requests no HTTP client would send; the status line and body come back. */
function sendRaw(base: string, bytes: Uint8Array): Promise<Reply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error("no answer within 15 s")));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
      const split = raw.indexOf("\r\n\r\n");
      const head = split < 0 ? raw : raw.slice(0, split);
      resolve({
        status,
        contentType: /^content-type:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? "",
        text: split < 0 ? "" : raw.slice(split + 4),
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// What an answer must look like.

function short(text: string, max = 160): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length <= max ? flat : `${flat.slice(0, max)}…(${text.length} chars)`;
}

function describeBody(body: string | Uint8Array | undefined): string {
  if (body === undefined) return "";
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  const text = bytes.toString("utf8");
  const printable = !text.includes("\ufffd") && /^[\t\n\r\x20-\x7e]*$/.test(text.slice(0, 200));
  return printable
    ? ` body(${bytes.length} B)=${short(text, 120)}`
    : ` body(${bytes.length} B, hex)=${bytes.subarray(0, 48).toString("hex")}${bytes.length > 48 ? "…" : ""}`;
}

function describeReq(part: Part, req: Req): string {
  const type = req.contentType === undefined ? "" : ` [content-type: ${req.contentType}]`;
  return `${part}: ${req.method} ${short(req.path)}${type}${describeBody(req.body)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A sentence a person understands: words, not a code, a stack frame or an internal value. */
function sentenceProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return "the message is not a string";
  const t = text.trim();
  if (t.length < 8 || !/[A-Za-z]{3}/.test(t) || !/\s/.test(t))
    return `message "${short(t)}" is not a sentence`;
  if (/\bundefined\b|\[object \w+\]|FST_ERR|SQLITE_|\bat \S+ \(|Cannot read prop|is not a function/i.test(t))
    return `message "${short(t)}" leaks an internal value`;
  return undefined;
}

const keysOf = (body: Record<string, unknown>) => Object.keys(body).sort().join(",");

function shapeProblem(shape: Shape, body: unknown): string | undefined {
  if (!isObject(body)) return "the error body is not a JSON object";
  switch (shape) {
    case "registry": {
      if ("code" in body) {
        if (
          keysOf(body) !== "code,error" ||
          body.error !== "Validation failure" ||
          !/^[A-Z_]+$/.test(String(body.code))
        )
          return `registry validation failures are {"error":"Validation failure","code":"<CODE>"}, not {${keysOf(body)}}`;
        return undefined;
      }
      if (keysOf(body) !== "error") return `registry errors are {"error": <sentence>}, not {${keysOf(body)}}`;
      return sentenceProblem(body.error);
    }
    case "ccip":
      if (keysOf(body) !== "message") return `CCIP gateway errors are {"message"}, not {${keysOf(body)}}`;
      return sentenceProblem(body.message);
    case "hub": {
      if (keysOf(body) !== "code,details,errCode,metadata,name,presentable")
        return `hub errors are {errCode, presentable, name, code, details, metadata}, not {${keysOf(body)}}`;
      if (body.name !== "HubError" || typeof body.presentable !== "boolean" || typeof body.code !== "number")
        return "hub error fields have the wrong types";
      if (typeof body.errCode !== "string" || !/^[a-z_.]+$/.test(body.errCode))
        return "hub errCode is not a code";
      const meta = body.metadata;
      if (!isObject(meta) || !Array.isArray(meta.errcode) || meta.errcode[0] !== body.errCode)
        return "hub metadata is not {errcode: [errCode]}";
      return sentenceProblem(body.details);
    }
    case "api": {
      const errors = body.errors;
      if (keysOf(body) !== "errors" || !Array.isArray(errors) || errors.length === 0)
        return `client API errors are {"errors":[{"message"}]}, not {${keysOf(body)}}`;
      for (const entry of errors) {
        if (!isObject(entry) || keysOf(entry) !== "message")
          return "a client API error entry is not {message}";
        const problem = sentenceProblem(entry.message);
        if (problem) return problem;
      }
      return undefined;
    }
    case "chain":
      if (keysOf(body) !== "error,message" || typeof body.error !== "string" || !/^[a-z_]+$/.test(body.error))
        return `devchain errors are {"error": <code>, "message"}, not ${short(JSON.stringify(body), 120)}`;
      return sentenceProblem(body.message);
  }
}

interface Case {
  label: string;
  req: Req;
  expect: Expect;
  /** Shapes an error may take (the CCIP gateway answers in its own, unknown routes under it in the registry's). */
  shapes?: readonly Shape[];
  /** HEAD: no body to check. */
  noBody?: boolean;
  /** Sent to a page or a file of one (Route.page): a 2xx or a redirect need not be JSON, a refusal may be a page. */
  page?: boolean;
  /** Extra check of a 2xx answer. */
  accepted?: (body: unknown) => string | undefined;
  /** A 2xx answer is plain text, not JSON. */
  text?: boolean;
}

/** Every problem with one answer; empty when it keeps the promise. */
function judge(part: Part, c: Case, reply: Reply, shapes: readonly Shape[]): string[] {
  const where = `${describeReq(part, c.req)} {${c.label}} → ${reply.status} ${short(reply.text, 300)}`;
  if (reply.status === 0) return [`${where}: no HTTP answer`];
  if (reply.status >= 500 || reply.status < 200) return [`${where}: a ${reply.status}, never acceptable`];
  const ok = reply.status >= 200 && reply.status < 300;
  if (ok && c.expect === "refuse") return [`${where}: accepted, but this input must be refused with a 4xx`];
  const redirect = reply.status >= 300 && reply.status < 400;
  if (redirect && !c.page) return [`${where}: a redirect is not an answer`];
  if (c.noBody || (c.page && (ok || redirect))) return [];
  // A page refuses with a page saying why, titled and with a main landmark, or in the part's JSON shape.
  if (c.page && /^text\/html/.test(reply.contentType))
    return /<h1>[^<]+<\/h1>/.test(reply.text) && /<main\b/.test(reply.text)
      ? []
      : [`${where}: an HTML refusal without a title and a main landmark`];
  if (ok && c.text)
    return /^text\/plain/.test(reply.contentType) ? [] : [`${where}: content-type is ${reply.contentType}`];
  let body: unknown;
  if (reply.text !== "" || !ok) {
    try {
      body = JSON.parse(reply.text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    if (!/^application\/json/.test(reply.contentType))
      return [`${where}: content-type is ${reply.contentType}`];
  }
  if (ok) {
    const problem = c.accepted?.(body);
    return problem ? [`${where}: ${problem}`] : [];
  }
  const problems = shapes.map((shape) => shapeProblem(shape, body));
  if (problems.some((p) => p === undefined)) return [];
  return [`${where}: ${problems.join("; ")}`];
}

// ---------------------------------------------------------------------------------------------
// Watching for writes below HTTP.

interface WriteWatch {
  /** Tables whose content changed since the last call (a cheap no-op when nothing committed). */
  changes(parts?: readonly Part[]): Promise<string[]>;
  /** Whether a per-request check is cheap enough for every request. */
  cheap: boolean;
  close(): Promise<void>;
}

function digestRows(rows: unknown): string {
  const json = JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === "bigint"
      ? value.toString()
      : value instanceof Uint8Array
        ? Buffer.from(value).toString("hex")
        : value,
  );
  return createHash("sha256").update(json).digest("hex");
}

function sqliteWatch(dataDir: string): WriteWatch {
  const dbs = PARTS.map((part) => {
    const db = new Database(join(dataDir, `${part}.sqlite`), { readonly: true, fileMustExist: true });
    const tables = (
      db
        .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    const fingerprint = () =>
      new Map(tables.map((t) => [t, digestRows(db.prepare(`select * from "${t}"`).raw().all())]));
    return {
      part,
      db,
      version: db.pragma("data_version", { simple: true }),
      last: fingerprint(),
      fingerprint,
    };
  });
  return {
    cheap: true,
    async changes(parts = PARTS) {
      const changed: string[] = [];
      for (const entry of dbs) {
        if (!parts.includes(entry.part)) continue;
        const version = entry.db.pragma("data_version", { simple: true });
        if (version === entry.version) continue;
        entry.version = version;
        const now = entry.fingerprint();
        for (const [table, digest] of now) if (entry.last.get(table) !== digest) changed.push(table);
        entry.last = now;
      }
      return changed;
    },
    async close() {
      for (const { db } of dbs) db.close();
    },
  };
}

const PREFIX: Record<Part, string> = { registry: "registry_", hub: "hub_", api: "api_", chain: "chain_" };

async function postgresWatch(url: string): Promise<WriteWatch> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  const tables = rows.map((row) => row.table_name).filter((t) => PARTS.some((p) => t.startsWith(PREFIX[p])));
  const fingerprint = async (parts: readonly Part[]) => {
    const chosen = tables.filter((t) => parts.some((p) => t.startsWith(PREFIX[p])));
    const sql = chosen
      .map(
        (t) =>
          `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`,
      )
      .join(" union all ");
    const result = await client.query<{ t: string; h: string }>(sql);
    return new Map(result.rows.map((row) => [row.t, row.h]));
  };
  let last = await fingerprint(PARTS);
  return {
    cheap: false,
    async changes(parts = PARTS) {
      const now = await fingerprint(parts);
      const changed = [...now].filter(([t, h]) => last.get(t) !== h).map(([t]) => t);
      last = new Map([...last, ...now]);
      return changed;
    },
    close: () => client.end(),
  };
}

// ---------------------------------------------------------------------------------------------
// Protobuf by hand: well-formed, malformed and properly signed messages, byte by byte.

function varint(value: bigint | number): number[] {
  let v = BigInt(value);
  if (v < 0n) v &= (1n << 64n) - 1n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const tag = (field: number, wire: number) => varint(field * 8 + wire);
const pbInt = (field: number, value: bigint | number) => [...tag(field, 0), ...varint(value)];
const pbBytes = (field: number, bytes: ArrayLike<number>) => [
  ...tag(field, 2),
  ...varint(bytes.length),
  ...Array.from(bytes),
];
const pbText = (field: number, text: string) => pbBytes(field, Buffer.from(text));

const MESSAGE_TYPE = {
  castAdd: 1,
  castRemove: 2,
  reactionAdd: 3,
  linkAdd: 5,
  verificationAdd: 7,
  userDataAdd: 11,
};
const MAINNET = 1;
const PROTOCOL_EPOCH_S = 1609459200;
const protocolNow = () => Math.floor(Date.now() / 1000) - PROTOCOL_EPOCH_S;

interface DataFields {
  type?: number;
  fid?: bigint | number;
  timestamp?: number;
  network?: number;
  /** Already tagged body field(s). */
  body?: number[];
}

function messageData(fid: number, fields: DataFields): Uint8Array {
  const castBody = pbText(4, "hostile input test");
  return Uint8Array.from([
    ...pbInt(1, fields.type ?? MESSAGE_TYPE.castAdd),
    ...pbInt(2, fields.fid ?? fid),
    ...pbInt(3, fields.timestamp ?? protocolNow()),
    ...pbInt(4, fields.network ?? MAINNET),
    ...(fields.body ?? pbBytes(5, castBody)),
  ]);
}

interface Envelope {
  hash?: Uint8Array;
  hashScheme?: number;
  signature?: Uint8Array;
  signatureScheme?: number;
  signer?: Uint8Array;
}

async function signedMessage(signerSeed: Uint8Array, data: Uint8Array, override: Envelope = {}) {
  const signer = new core.NobleEd25519Signer(signerSeed);
  const hash = blake3(data, { dkLen: 20 });
  const signature = (await signer.signMessageHash(override.hash ?? hash))._unsafeUnwrap();
  const key = (await signer.getSignerKey())._unsafeUnwrap();
  return Uint8Array.from([
    ...pbBytes(2, override.hash ?? hash),
    ...pbInt(3, override.hashScheme ?? 1),
    ...pbBytes(4, override.signature ?? signature),
    ...pbInt(5, override.signatureScheme ?? 1),
    ...pbBytes(6, override.signer ?? key),
    ...pbBytes(7, data),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Hostile values for parameters (query strings and path segments, already percent-encoded).

type ParamKind =
  | "uint"
  | "fid"
  | "limit"
  | "text"
  | "hex20"
  | "hashPrefix"
  | "hex32"
  | "address"
  | "enum"
  | "bool"
  | "pageToken"
  | "cursor";

interface Param {
  kind: ParamKind;
  /** The baseline's value (raw); undefined: absent from the baseline, only sent hostile. */
  valid?: string;
  required?: boolean;
}

interface Hostile {
  value: string;
  expect: Expect;
}

const R = (value: string): Hostile => ({ value, expect: "refuse" });
const E = (value: string): Hostile => ({ value, expect: "either" });

const NOT_INTEGERS = [
  "abc",
  "-1",
  "1.5",
  "18446744073709551616",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "9007199254740992",
  "%FF%FE",
  "%00",
  "1%00",
  "%EF%BC%91",
  "true",
  "null",
  "%5B%5D",
  "%7B%7D",
  "9".repeat(400),
  "1%2C2",
  "%ZZ",
];

const ODD_TEXT = [
  "%FF%FE",
  "%00",
  "a".repeat(3000),
  "%ZZ",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "..%2F..%2Fetc%2Fpasswd",
  "%F0%9F%92%A9",
  "%ED%A0%80",
  "%27%3B%20drop%20table%20x%3B--",
  "%20",
  "%5B%5D",
];

function badHex(bytes: number): string[] {
  return [
    "zz",
    "0x",
    "0x1",
    `0x${"00".repeat(bytes - 1)}`,
    `0x${"00".repeat(bytes + 1)}`,
    `0x${"gg".repeat(bytes)}`,
    "%FF%FE",
    "0x%00",
    `0x${"ab".repeat(3000)}`,
    "-1",
    "%ZZ",
  ];
}

const RANDOM = seeded(0x5eed);

function hostileParams(kind: ParamKind, required: boolean, enumValues: readonly string[] = []): Hostile[] {
  const empty = required ? R("") : E("");
  switch (kind) {
    case "uint":
      return [...NOT_INTEGERS.map(R), E("0"), E(String(MAX_SAFE)), empty];
    case "fid":
      return [...NOT_INTEGERS.map(R), R("0"), E(String(MAX_SAFE)), empty];
    case "limit":
      return [...NOT_INTEGERS.map(R), R("0"), R("101"), R(String(MAX_SAFE)), empty];
    case "text":
      return [...ODD_TEXT.map(E), empty];
    case "hex20":
      return [...badHex(20).map(R), empty];
    case "hashPrefix":
      // A hash or its first 8 hex digits or more: shorter, longer or not hex is refused.
      return [
        ...["0x1234567", ...badHex(20).filter((value) => value !== `0x${"00".repeat(19)}`)].map(R),
        E(`0x${"00".repeat(19)}`),
        E("0x12345678"),
        E("ABCDEF0123"),
        empty,
      ];
    case "hex32":
      return [...badHex(32).map(R), empty];
    case "address":
      return [...badHex(20).map(R), R("not-an-address"), empty];
    case "enum":
      return [
        ...["0", "99", "-1", "1.5", "NONE", "%FF%FE", "99999999999999999999", "%00", "a".repeat(3000)].map(R),
        ...enumValues.map((v) => R(`${encodeURIComponent(v)}%20`)),
        empty,
      ];
    case "bool":
      return [R("maybe"), R("2"), R("%FF%FE"), R("%00"), E("1"), E("0"), E("TRUE"), empty];
    case "pageToken":
      return [
        R("!!!"),
        R("AAAA"),
        R("%FF%FE"),
        R("===="),
        R("a".repeat(1025)),
        R("-_-_"),
        E(encodeURIComponent(Buffer.from(RANDOM.bytes(24)).toString("base64"))),
        E(""),
      ];
    case "cursor":
      return [
        R("garbage"),
        R("A".repeat(257)),
        R(Buffer.from(RANDOM.bytes(40)).toString("base64url")),
        R("%FF%FE"),
        R("%00"),
        R(""),
      ];
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values for JSON body fields.

/** JSON text spliced into a body as it is (numbers JSON.stringify cannot write, invalid literals). */
class Raw {
  constructor(readonly text: string) {}
}
/** Stands for two bytes that are not UTF-8 (0xff 0xfe) inside a JSON string. */
const NOT_UTF8 = "\ue000";

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

function jsonBytes(value: unknown): Uint8Array {
  const parts = toJson(value).split(NOT_UTF8);
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(Buffer.from([0xff, 0xfe]));
    chunks.push(Buffer.from(part));
  });
  return Buffer.concat(chunks);
}

type FieldKind =
  "uint" | "fid" | "int" | "text" | "hex" | "address" | "url" | "enum" | "bool" | "object" | "array";

interface Field {
  kind: FieldKind;
  required?: boolean;
  nullable?: boolean;
  /** Longest accepted string, when the route says. */
  max?: number;
}

interface HostileValue {
  label: string;
  value: unknown;
  expect: Expect;
}

function hostileFields(field: Field): HostileValue[] {
  const r = (label: string, value: unknown): HostileValue => ({ label, value, expect: "refuse" });
  const e = (label: string, value: unknown): HostileValue => ({ label, value, expect: "either" });
  const nullValue = field.nullable ? e("null", null) : r("null", null);
  const common = [nullValue, r("true", true), r("[]", []), r('["x"]', ["x"])];
  const numeric = field.kind === "uint" || field.kind === "fid" || field.kind === "int";
  if (numeric) {
    return [
      ...common,
      r("{}", {}),
      r('"1"', "1"),
      r('"abc"', "abc"),
      r("-1", -1),
      r("1.5", 1.5),
      r("2^64", new Raw("18446744073709551616")),
      r("1e309", new Raw("1e309")),
      r("-1e309", new Raw("-1e309")),
      r("1e400 written out", new Raw(`1${"0".repeat(400)}`)),
      r("2^53+1", new Raw("9007199254740993")),
      r("NaN", new Raw("NaN")),
      r("0x10", new Raw("0x10")),
      r("01", new Raw("01")),
      r("+1", new Raw("+1")),
      e("1e3", new Raw("1e3")),
      e("1.0", new Raw("1.0")),
      field.kind === "fid" ? r("-0", new Raw("-0")) : e("-0", new Raw("-0")),
      field.kind === "fid" ? r("0", 0) : e("0", 0),
    ];
  }
  if (field.kind === "bool") return [...common, r("{}", {}), r('"true"', "true"), r("1", 1), r("0", 0)];
  if (field.kind === "object") return [...common, r('"x"', "x"), r("1", 1), r("{}", {})];
  if (field.kind === "array")
    return [
      ...common.filter((h) => h.label !== "[]"),
      r('"x"', "x"),
      r("{}", {}),
      r("[null]", [null]),
      r('["1"]', ["1"]),
      r("[-1]", [-1]),
      r("[1.5]", [1.5]),
      r("[[1]]", [[1]]),
      r(
        "1001 items",
        Array.from({ length: 1001 }, (_, i) => i + 1),
      ),
    ];
  // Strings of every kind.
  const loose = field.kind === "text" ? e : r;
  const values = [
    ...common,
    r("{}", {}),
    r("1", 1),
    loose('""', ""),
    loose("NUL", "\u0000"),
    loose("lone surrogate", new Raw('"\\ud800"')),
    loose("not UTF-8", `x${NOT_UTF8}y`),
    loose("script and emoji", "<script>alert(1)</script>𝕏🚀"),
    loose("SQL", "'; drop table x; --"),
    field.max === undefined
      ? loose("3000 chars", "a".repeat(3000))
      : r(`${field.max + 1} chars`, "a".repeat(field.max + 1)),
  ];
  if (field.kind === "hex" || field.kind === "address") {
    values.push(
      r("0xzz", "0xzz"),
      r("0x1 (odd)", "0x1"),
      r("no 0x", "ab".repeat(field.kind === "address" ? 20 : 32)),
      r("huge hex", `0x${"ab".repeat(4000)}`),
      r("fullwidth digits", "0x１２"),
    );
  }
  if (field.kind === "address")
    values.push(r("19 bytes", `0x${"11".repeat(19)}`), r("21 bytes", `0x${"11".repeat(21)}`));
  if (field.kind === "url")
    values.push(r("not a url", "not a url"), e("javascript:", "javascript:alert(1)"), e("ftp", "ftp://x"));
  if (field.kind === "enum") values.push(r("UPPER", "GRANT"), r("padded", " top "));
  return values;
}

// ---------------------------------------------------------------------------------------------
// The routes, listed from the routes files of each part.

interface JsonBody {
  /** The baseline body: well formed, refused by the part's rules (so that nothing it accepts writes), unless `baselineOk`. */
  valid: Record<string, unknown>;
  fields: Record<string, Field>;
  /** The baseline would be accepted (and write): never sent as it is; mutations that keep it valid may be accepted. */
  baselineOk?: boolean;
}

interface Route {
  part: Part;
  method: string;
  /** Fastify pattern; `:name` segments come from `params`. */
  path: string;
  params?: Record<string, Param>;
  query?: Record<string, Param>;
  /** Unknown query parameters are refused (every part but the hub, which ignores them as the reference does). */
  strictQuery: boolean;
  enums?: Record<string, readonly string[]>;
  json?: JsonBody;
  /** Routes that take no body: a body sent anyway. */
  noBody?: boolean;
  proto?: "message" | "validate" | "bulk";
  bodyLimit?: number;
  /** Whether a request to this route may change state when accepted. */
  write?: boolean;
  /**
   * A page (the client API's explorer) or a file of one (the docs page): its answers are HTML,
   * scripts, YAML or a redirect, not JSON, and it may refuse with a page saying why.
   */
  page?: boolean;
  /** An accepted request opens a stream that never ends: only requests the route must refuse are sent. */
  stream?: boolean;
  /** Accepted answers are plain text (the Prometheus format), not JSON; refusals are still the part's JSON. */
  text?: boolean;
  /** What the baseline request is expected to get. */
  baseline?: Expect | "skip";
  shapes?: readonly Shape[];
  extra?: (fx: Fixtures) => Promise<Case[]> | Case[];
}

interface Fixtures {
  urls: Record<Part, string>;
  alice: AccountDetails;
  bob: AccountDetails;
  namers: { account: AccountDetails; name: string; secondClaim: Record<string, unknown> }[];
  aliceName: string;
  castHash: string;
  castBytes: Uint8Array;
  keyRequestToken: string;
  keyRequestBody: Record<string, unknown>;
  approvalBody: Record<string, unknown>;
  demoAction: Record<string, unknown>;
  ccipData: string;
}

const paging = (): Record<string, Param> => ({
  pageSize: { kind: "uint", valid: "2" },
  page_size: { kind: "uint" },
  pageToken: { kind: "pageToken" },
  page_token: { kind: "pageToken" },
  reverse: { kind: "text", valid: "true" },
});
const apiPaging = (): Record<string, Param> => ({
  limit: { kind: "limit", valid: "2" },
  cursor: { kind: "cursor" },
});

const REACTION_TYPES = ["REACTION_TYPE_LIKE", "REACTION_TYPE_RECAST", "1", "2"];
const EVENT_TYPES = ["EVENT_TYPE_SIGNER", "EVENT_TYPE_ID_REGISTER", "1", "2", "3", "4"];
const USER_DATA_TYPES = ["USER_DATA_TYPE_PFP", "USER_DATA_TYPE_USERNAME", "1", "6"];

function routes(fx: Fixtures): Route[] {
  const alice = String(fx.alice.fid);
  const hub = (path: string, query: Record<string, Param>, more: Partial<Route> = {}): Route => ({
    part: "hub",
    method: "GET",
    path,
    query,
    strictQuery: false,
    ...more,
  });
  const api = (method: string, path: string, more: Partial<Route> = {}): Route => ({
    part: "api",
    method,
    path,
    strictQuery: true,
    ...more,
  });
  const chain = (method: string, path: string, more: Partial<Route> = {}): Route => ({
    part: "chain",
    method,
    path,
    strictQuery: true,
    ...more,
  });
  const ccip: readonly Shape[] = ["ccip", "registry"];
  const namer = fx.namers[0]!;
  const operatorFid: Param = { kind: "fid", valid: "4242", required: true };
  return [
    // Registry (src/registry/routes.ts, ccipRoutes.ts)
    {
      part: "registry",
      method: "GET",
      path: "/transfers",
      strictQuery: true,
      query: {
        from_id: { kind: "uint", valid: "1" },
        fromId: { kind: "uint" },
        from_ts: { kind: "uint", valid: "1" },
        name: { kind: "text", valid: namer.name },
        fname: { kind: "text" },
        fid: { kind: "uint", valid: String(namer.account.fid) },
      },
    },
    {
      part: "registry",
      method: "GET",
      path: "/transfers/current",
      strictQuery: true,
      query: { fid: { kind: "uint", valid: alice }, name: { kind: "text" }, fname: { kind: "text" } },
    },
    {
      part: "registry",
      method: "POST",
      path: "/transfers",
      strictQuery: false,
      write: true,
      bodyLimit: 16 * 1024,
      json: {
        valid: namer.secondClaim,
        fields: {
          name: { kind: "text", required: true, max: 1024 },
          from: { kind: "uint", required: true },
          to: { kind: "uint", required: true },
          fid: { kind: "uint" },
          owner: { kind: "address", required: true },
          timestamp: { kind: "uint", required: true },
          signature: { kind: "hex", required: true },
        },
      },
      extra: (f) => registryTransferCases(f),
    },
    { part: "registry", method: "GET", path: "/signer", strictQuery: false },
    { part: "registry", method: "GET", path: "/current-time", strictQuery: false },
    { part: "registry", method: "GET", path: "/_health", strictQuery: false },
    { part: "registry", method: "GET", path: "/_ready", strictQuery: false },
    { part: "registry", method: "GET", path: "/metrics", strictQuery: false, text: true },
    {
      part: "registry",
      method: "GET",
      path: "/ccip/*",
      strictQuery: false,
      shapes: ccip,
      baseline: "skip",
      extra: (f) => ccipGetCases(f),
    },
    {
      part: "registry",
      method: "POST",
      path: "/ccip",
      strictQuery: false,
      shapes: ccip,
      bodyLimit: 16 * 1024,
      json: {
        valid: { sender: `0x${"00".repeat(20)}`, data: fx.ccipData },
        baselineOk: true,
        fields: { sender: { kind: "address", required: true }, data: { kind: "hex", required: true } },
      },
    },

    // Hub (src/hub/routes/*.ts)
    hub("/v1/info", { dbstats: { kind: "text", valid: "true" } }),
    hub("/v1/activity/reactorsByAuthor", {
      since: { kind: "uint", valid: String(Math.floor(Date.now() / 1000) - 86_400), required: true },
    }),
    hub("/v1/castById", {
      fid: { kind: "uint", valid: alice, required: true },
      hash: { kind: "hex20", valid: fx.castHash, required: true },
    }),
    hub("/v1/castByHash", { hash: { kind: "hashPrefix", valid: fx.castHash, required: true } }),
    hub("/v1/castsByFid", { fid: { kind: "uint", valid: alice, required: true }, ...paging() }),
    hub(
      "/v1/castsByParent",
      {
        fid: { kind: "uint", valid: alice },
        hash: { kind: "hex20", valid: fx.castHash },
        url: { kind: "text" },
        ...paging(),
      },
      {
        extra: () => [
          {
            label: "neither parent cast nor url",
            req: { method: "GET", path: "/v1/castsByParent" },
            expect: "refuse",
          },
        ],
      },
    ),
    hub("/v1/castsByMention", { fid: { kind: "uint", valid: alice, required: true }, ...paging() }),
    hub(
      "/v1/reactionById",
      {
        fid: { kind: "uint", valid: alice, required: true },
        reaction_type: { kind: "enum", valid: "1", required: true },
        target_fid: { kind: "uint", valid: alice },
        target_hash: { kind: "hex20", valid: fx.castHash },
        target_url: { kind: "text" },
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub(
      "/v1/reactionsByFid",
      {
        fid: { kind: "uint", valid: alice, required: true },
        reaction_type: { kind: "enum", valid: "REACTION_TYPE_LIKE" },
        ...paging(),
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub(
      "/v1/reactionsByCast",
      {
        target_fid: { kind: "uint", valid: alice, required: true },
        target_hash: { kind: "hex20", valid: fx.castHash, required: true },
        reaction_type: { kind: "enum", valid: "2" },
        ...paging(),
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub(
      "/v1/reactionsByTarget",
      {
        url: { kind: "text", valid: "https://example.com/x", required: true },
        reaction_type: { kind: "enum" },
        ...paging(),
      },
      { enums: { reaction_type: REACTION_TYPES } },
    ),
    hub("/v1/linkById", {
      fid: { kind: "uint", valid: alice, required: true },
      target_fid: { kind: "uint", valid: String(fx.bob.fid), required: true },
      link_type: { kind: "text", valid: "follow", required: true },
    }),
    hub("/v1/linksByFid", {
      fid: { kind: "uint", valid: alice, required: true },
      link_type: { kind: "text", valid: "follow" },
      ...paging(),
    }),
    hub("/v1/linksByTargetFid", {
      target_fid: { kind: "uint", valid: alice, required: true },
      link_type: { kind: "text" },
      ...paging(),
    }),
    hub(
      "/v1/userDataByFid",
      { fid: { kind: "uint", valid: alice, required: true }, user_data_type: { kind: "enum" }, ...paging() },
      { enums: { user_data_type: USER_DATA_TYPES } },
    ),
    hub("/v1/verificationsByFid", {
      fid: { kind: "uint", valid: alice, required: true },
      address: { kind: "address" },
      ...paging(),
    }),
    hub("/v1/onChainSignersByFid", {
      fid: { kind: "uint", valid: alice, required: true },
      // Absent from the baseline: with a signer the route answers that key's event and ignores paging.
      signer: { kind: "hex32" },
      ...paging(),
    }),
    hub(
      "/v1/onChainEventsByFid",
      {
        fid: { kind: "uint", valid: alice, required: true },
        event_type: { kind: "enum", valid: "EVENT_TYPE_SIGNER", required: true },
      },
      { enums: { event_type: EVENT_TYPES } },
    ),
    hub("/v1/onChainIdRegistryEventByAddress", {
      address: { kind: "hex20", valid: fx.alice.custodyAddress, required: true },
    }),
    hub("/v1/fids", paging()),
    hub("/v1/storageLimitsByFid", { fid: { kind: "uint", valid: alice, required: true } }),
    hub("/v1/userNameProofByName", { name: { kind: "text", valid: fx.aliceName, required: true } }),
    hub("/v1/userNameProofsByFid", { fid: { kind: "uint", valid: alice, required: true } }),
    hub("/v1/events", { from_event_id: { kind: "uint", valid: "1" } }),
    hub(
      "/v1/events/stream",
      { from_event_id: { kind: "uint", valid: "1" } },
      {
        stream: true,
        baseline: "skip",
        extra: () =>
          ["abc", "-1", "0x10", "1".repeat(17)].map((id) => ({
            label: `Last-Event-ID ${id}`,
            req: { method: "GET", path: "/v1/events/stream", headers: { "last-event-id": id } },
            expect: "refuse" as const,
          })),
      },
    ),
    hub(
      "/v1/eventById",
      { event_id: { kind: "uint", valid: "1" }, id: { kind: "uint" } },
      {
        extra: () => [
          { label: "no event id", req: { method: "GET", path: "/v1/eventById" }, expect: "refuse" },
        ],
      },
    ),
    hub("/_health", {}),
    hub("/_ready", {}),
    hub("/metrics", {}, { text: true }),
    ...["/v1/admin/housekeeping", "/v1/admin/sync"].map((path) =>
      hub(path, {}, { method: "POST", write: true, noBody: true }),
    ),
    {
      part: "hub",
      method: "POST",
      path: "/v1/submitMessage",
      strictQuery: false,
      proto: "message",
      write: true,
      bodyLimit: 80 * 1024,
    },
    {
      part: "hub",
      method: "POST",
      path: "/v1/validateMessage",
      strictQuery: false,
      proto: "validate",
      bodyLimit: 80 * 1024,
    },
    {
      part: "hub",
      method: "POST",
      path: "/v1/submitBulkMessages",
      strictQuery: false,
      proto: "bulk",
      write: true,
      bodyLimit: 8 * 1024 * 1024,
    },

    // Client API (src/clientapi/routes/)
    api("GET", "/v2/all-channels"),
    api("GET", "/v1/channel", { query: { channelId: { kind: "text", valid: "welcome", required: true } } }),
    api("GET", "/v1/channel-followers", {
      query: { channelId: { kind: "text", valid: "welcome", required: true }, ...apiPaging() },
    }),
    api("GET", "/v1/user-following-channels", {
      query: { fid: { kind: "fid", valid: "3", required: true }, ...apiPaging() },
    }),
    api("GET", "/v1/user-channel", {
      query: {
        fid: { kind: "fid", valid: "3", required: true },
        channelId: { kind: "text", valid: "welcome", required: true },
      },
    }),
    api("GET", "/v2/power-badge-users"),
    api("GET", "/v2/discover-actions", {
      query: { list: { kind: "enum", valid: "top", required: true }, ...apiPaging() },
      enums: { list: ["top"] },
    }),
    api("GET", "/v2/discover-composer-actions", {
      query: { list: { kind: "enum", valid: "featured", required: true }, ...apiPaging() },
      enums: { list: ["top", "featured"] },
    }),
    api("GET", "/v1/blocked-users", { query: { blockerFid: { kind: "fid", valid: "3" }, ...apiPaging() } }),
    api("GET", "/fc/blocked-users", { query: { blockerFid: { kind: "fid", valid: "3" }, ...apiPaging() } }),
    ...["/v2/signed-key-request", "/v2/signed-key-requests"].map((path) =>
      api("POST", path, {
        write: true,
        json: {
          valid: fx.keyRequestBody,
          fields: {
            key: { kind: "hex", required: true, max: 200 },
            requestFid: { kind: "fid", required: true },
            deadline: { kind: "int", required: true },
            signature: { kind: "hex", required: true, max: 300 },
            redirectUrl: { kind: "url", max: 2048 },
            sponsorship: { kind: "object" },
            "sponsorship.sponsorFid": { kind: "fid", required: true },
            "sponsorship.signature": { kind: "hex", required: true, max: 300 },
          },
        },
      }),
    ),
    api("GET", "/v2/signed-key-request", {
      query: { token: { kind: "text", valid: fx.keyRequestToken, required: true } },
    }),
    api("GET", "/v2/signed-key-request/approval", {
      query: {
        token: { kind: "text", valid: fx.keyRequestToken, required: true },
        fid: { kind: "fid", valid: alice, required: true },
      },
    }),
    api("POST", "/v2/signed-key-request/approval", {
      write: true,
      json: {
        valid: fx.approvalBody,
        fields: {
          token: { kind: "text", required: true, max: 200 },
          fid: { kind: "fid", required: true },
          nonce: { kind: "uint", required: true },
          deadline: { kind: "int", required: true },
          signature: { kind: "hex", required: true, max: 300 },
        },
      },
    }),
    api("POST", "/v1/admin/channels", {
      write: true,
      query: {},
      json: {
        // "welcome" exists: refused with 409 once everything else passes.
        valid: {
          id: "welcome",
          url: "https://example.com/hostile",
          name: "Hostile",
          imageUrl: "https://example.com/hostile.png",
          description: "a channel that must never be created",
          leadFid: 3,
        },
        fields: {
          id: { kind: "text", required: true, max: 64 },
          url: { kind: "url", required: true, max: 2048 },
          name: { kind: "text", required: true, max: 64 },
          imageUrl: { kind: "url", required: true, max: 2048 },
          description: { kind: "text", nullable: true, max: 1024 },
          leadFid: { kind: "fid", nullable: true },
          moderatorFids: { kind: "array", nullable: true },
          publicCasting: { kind: "bool", nullable: true },
          externalLink: { kind: "object", nullable: true },
          createdAt: { kind: "uint" },
        },
      },
    }),
    api("PATCH", "/v1/admin/channels/:channelId", {
      write: true,
      query: {},
      params: { channelId: { kind: "text", valid: "no-such-channel", required: true } },
      json: {
        valid: {
          name: "Renamed",
          descriptionMentions: [3],
          descriptionMentionsPositions: [0],
          description: "x",
        },
        fields: {
          name: { kind: "text", max: 64 },
          descriptionMentions: { kind: "array", nullable: true },
          descriptionMentionsPositions: { kind: "array", nullable: true },
          description: { kind: "text", nullable: true, max: 1024 },
          memberCount: { kind: "uint", nullable: true },
          pinnedCastHash: { kind: "hex", nullable: true, max: 42 },
          headerImageUrl: { kind: "url", nullable: true, max: 2048 },
        },
      },
    }),
    api("PUT", "/v1/admin/channels/:channelId/followers/:fid", {
      write: true,
      query: {},
      params: {
        channelId: { kind: "text", valid: "no-such-channel", required: true },
        fid: { kind: "fid", valid: "3", required: true },
      },
      json: { valid: { followedAt: 1 }, fields: { followedAt: { kind: "uint" } } },
    }),
    api("DELETE", "/v1/admin/channels/:channelId/followers/:fid", {
      write: true,
      query: {},
      noBody: true,
      params: {
        channelId: { kind: "text", valid: "no-such-channel", required: true },
        fid: { kind: "fid", valid: "3", required: true },
      },
    }),
    api("PUT", "/v1/admin/blocks/:blockerFid/:blockedFid", {
      write: true,
      query: {},
      // A fid cannot block itself: refused once the input is read.
      params: {
        blockerFid: { kind: "fid", valid: "5", required: true },
        blockedFid: { kind: "fid", valid: "5", required: true },
      },
      json: { valid: { createdAt: 1 }, fields: { createdAt: { kind: "uint" } } },
    }),
    api("DELETE", "/v1/admin/blocks/:blockerFid/:blockedFid", {
      write: true,
      query: {},
      noBody: true,
      baseline: "either",
      params: {
        blockerFid: { kind: "fid", valid: "5", required: true },
        blockedFid: { kind: "fid", valid: "6", required: true },
      },
    }),
    api("GET", "/v1/admin/actions", { query: {} }),
    api("POST", "/v1/admin/actions", {
      write: true,
      query: {},
      json: {
        // An actionUrl already registered: refused with 409 once everything else passes.
        valid: fx.demoAction,
        fields: {
          type: { kind: "enum", required: true },
          name: { kind: "text", required: true, max: 30 },
          icon: { kind: "text", required: true, max: 40 },
          description: { kind: "text", required: true, max: 80 },
          aboutUrl: { kind: "url", required: true, max: 2048 },
          actionUrl: { kind: "url", required: true, max: 2048 },
          postUrl: { kind: "url", max: 2048 },
        },
      },
    }),
    ...(["PUT", "DELETE"] as const).map((method) =>
      api(method, "/v1/admin/actions/:actionId/installs/:fid", {
        write: true,
        query: {},
        noBody: true,
        params: {
          actionId: { kind: "fid", valid: "999999", required: true },
          fid: { kind: "fid", valid: "3", required: true },
        },
      }),
    ),
    api("PUT", "/v1/admin/actions/:actionId/featured", {
      write: true,
      query: {},
      params: { actionId: { kind: "fid", valid: "999999", required: true } },
      json: { valid: { rank: 1 }, fields: { rank: { kind: "fid" } } },
    }),
    api("DELETE", "/v1/admin/actions/:actionId/featured", {
      write: true,
      query: {},
      noBody: true,
      params: { actionId: { kind: "fid", valid: "999999", required: true } },
    }),
    api("GET", "/v1/admin/power-badges", { query: {} }),
    api("PUT", "/v1/admin/power-badges/:fid", {
      write: true,
      query: {},
      baseline: "skip",
      params: { fid: operatorFid },
      json: {
        valid: { badge: "grant" },
        baselineOk: true,
        fields: { badge: { kind: "enum", required: true } },
      },
    }),
    api("DELETE", "/v1/admin/power-badges/:fid", {
      write: true,
      query: {},
      noBody: true,
      params: { fid: { kind: "fid", valid: "4243", required: true } },
    }),
    api("POST", "/v1/admin/power-badges/recalculate", {
      write: true,
      query: {},
      noBody: true,
      baseline: "skip",
    }),
    api("GET", "/v1/admin/sponsors/:fid", {
      query: {},
      params: { fid: { kind: "fid", valid: "1", required: true } },
    }),
    api("PUT", "/v1/admin/sponsors/:fid", {
      write: true,
      query: {},
      baseline: "skip",
      params: { fid: operatorFid },
      json: {
        valid: { credits: 5 },
        baselineOk: true,
        fields: { credits: { kind: "uint", required: true } },
      },
    }),
    api("GET", "/_health", { strictQuery: false }),
    api("GET", "/_ready", { strictQuery: false }),
    api("GET", "/metrics", { strictQuery: false, text: true }),

    // Devchain (src/devchain/routes/)
    chain("POST", "/v1/fids", {
      write: true,
      query: { wait: { kind: "bool", valid: "true" } },
      json: {
        // Alice's custody address already owns a fid: refused with 409.
        valid: { custody: fx.alice.custodyAddress, recovery: fx.alice.custodyAddress },
        fields: { custody: { kind: "address", required: true }, recovery: { kind: "address" } },
      },
    }),
    // The devchain's reads that take no query string have no schema for one: unknown parameters are ignored.
    chain("GET", "/v1/fids/:fid", {
      strictQuery: false,
      params: { fid: { kind: "fid", valid: alice, required: true } },
    }),
    chain("POST", "/v1/fids/:fid/signers", {
      write: true,
      params: { fid: { kind: "fid", valid: alice, required: true } },
      query: { wait: { kind: "bool", valid: "true" } },
      json: {
        // Alice's signer is already added: refused with 409.
        valid: { key: fx.alice.signerPublicKey, keyType: 1, metadataType: 1, metadata: "0x00" },
        fields: {
          key: { kind: "hex", required: true, max: 66 },
          keyType: { kind: "uint" },
          metadataType: { kind: "uint" },
          metadata: { kind: "hex", max: 16_384 },
        },
      },
    }),
    chain("DELETE", "/v1/fids/:fid/signers/:key", {
      write: true,
      noBody: true,
      query: { wait: { kind: "bool", valid: "true" } },
      params: {
        fid: { kind: "fid", valid: alice, required: true },
        key: { kind: "hex32", valid: `0x${"07".repeat(32)}`, required: true },
      },
    }),
    chain("POST", "/v1/fids/:fid/storage", {
      write: true,
      query: { wait: { kind: "bool", valid: "true" } },
      params: { fid: { kind: "fid", valid: "999999", required: true } },
      json: { valid: { units: 1 }, fields: { units: { kind: "fid", required: true } } },
    }),
    chain("GET", "/v1/addresses/:address", {
      strictQuery: false,
      params: { address: { kind: "address", valid: fx.alice.custodyAddress, required: true } },
    }),
    chain("GET", "/v1/events", {
      query: { from_block: { kind: "uint", valid: "0" }, limit: { kind: "fid", valid: "10" } },
    }),
    chain("GET", "/v1/transactions/:hash", {
      strictQuery: false,
      params: { hash: { kind: "hex32", valid: `0x${"00".repeat(32)}`, required: true } },
    }),
    chain("GET", "/v1/blocks/latest", { strictQuery: false }),
    chain("GET", "/_health", { strictQuery: false }),
    chain("GET", "/_ready", { strictQuery: false }),
    chain("GET", "/metrics", { strictQuery: false, text: true }),

    // The client API's pages (src/explorer).
    api("GET", "/", { page: true }),
    api("GET", "/fid/:fid", {
      page: true,
      params: { fid: { kind: "fid", valid: alice, required: true } },
      query: { casts: { kind: "pageToken" } },
    }),
    api("GET", "/cast/:fid/:hash", {
      page: true,
      params: {
        fid: { kind: "fid", valid: alice, required: true },
        hash: { kind: "hex20", valid: fx.castHash, required: true },
      },
    }),
    api("GET", "/name/:name", {
      page: true,
      params: { name: { kind: "text", valid: fx.aliceName, required: true } },
    }),
    api("GET", "/channel/:id", {
      page: true,
      params: { id: { kind: "text", valid: "welcome", required: true } },
    }),
    api("GET", "/events", {
      page: true,
      query: {
        from: { kind: "uint", valid: "0" },
        type: { kind: "enum" },
        fid: { kind: "fid", valid: alice },
      },
      enums: { type: ["HUB_EVENT_TYPE_MERGE_MESSAGE", "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT", ""] },
    }),
    api("GET", "/search", { page: true, query: { q: { kind: "text", valid: alice, required: true } } }),
    api("GET", "/approve", {
      page: true,
      query: { token: { kind: "text", valid: fx.keyRequestToken, required: true } },
    }),
    api("POST", "/approve", {
      page: true,
      write: true,
      json: {
        // No Origin header: refused (403) as a form posted from another site.
        valid: { token: fx.keyRequestToken, account: "alice" },
        fields: {
          token: { kind: "text", required: true, max: 200 },
          account: { kind: "text", required: true, max: 32 },
        },
      },
    }),
    api("GET", "/assets/:file", {
      page: true,
      params: { file: { kind: "text", valid: "app.js", required: true } },
    }),

    // Every part's OpenAPI document and docs page (src/http/openapi.ts).
    ...PARTS.flatMap((part) => [
      { part, method: "GET", path: "/openapi.json", strictQuery: false },
      ...[
        "/docs",
        "/docs/static/index.html",
        "/docs/static/swagger-initializer.js",
        "/docs/static/*",
        "/docs/yaml",
      ].map((path) => ({ part, method: "GET", path, strictQuery: false, page: true })),
      { part, method: "GET", path: "/docs/json", strictQuery: false },
    ]),
  ];
}

// ---------------------------------------------------------------------------------------------
// Cases for a route.

const enc = encodeURIComponent;

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? "");
}

function withQuery(path: string, pairs: readonly (readonly [string, string])[]): string {
  return pairs.length === 0 ? path : `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`;
}

function baselineBody(route: Route): Pick<Req, "body" | "contentType"> {
  return route.json ? { body: jsonBytes(route.json.valid), contentType: "application/json" } : {};
}

function baselinePath(route: Route): string {
  const params = Object.fromEntries(
    Object.entries(route.params ?? {}).map(([k, p]) => [k, enc(p.valid ?? "")]),
  );
  const query = Object.entries(route.query ?? {})
    .filter(([, p]) => p.valid !== undefined)
    .map(([k, p]) => [k, enc(p.valid!)] as const);
  return withQuery(fill(route.path, params), query);
}

/** Query-string and path-parameter cases: one hostile value at a time, the rest of the baseline intact. */
function parameterCases(route: Route): Case[] {
  const cases: Case[] = [];
  const body = baselineBody(route);
  const method = route.method;
  const intact: Expect = route.json && !route.json.baselineOk ? "refuse" : "either";
  const params = Object.fromEntries(
    Object.entries(route.params ?? {}).map(([k, p]) => [k, enc(p.valid ?? "")]),
  );
  const query = Object.entries(route.query ?? {})
    .filter(([, p]) => p.valid !== undefined)
    .map(([k, p]) => [k, enc(p.valid!)] as const);
  const strict: Expect = route.strictQuery ? "refuse" : intact;
  const add = (label: string, path: string, expect: Expect) =>
    cases.push({ label, req: { method, path, ...body }, expect });
  const path = fill(route.path, params);

  for (const [name, param] of Object.entries(route.query ?? {})) {
    const others = query.filter(([k]) => k !== name);
    for (const h of hostileParams(param.kind, param.required ?? false, route.enums?.[name])) {
      add(`${name}=${h.value.slice(0, 40)}`, withQuery(path, [...others, [name, h.value]]), h.expect);
    }
    const value = param.valid === undefined ? "1" : enc(param.valid);
    add(`${name} twice`, withQuery(path, [...others, [name, value], [name, value]]), "refuse");
    add(
      `${name}[]`,
      withQuery(path, [...others, [`${name}%5B%5D`, value]]),
      param.required ? "refuse" : strict,
    );
    if (param.required) add(`without ${name}`, withQuery(path, others), "refuse");
  }
  add("an unknown query parameter", withQuery(path, [...query, ["zz_unknown", "1"]]), strict);
  add(
    "a query string that is not key=value",
    `${withQuery(path, query)}${query.length ? "&" : "?"}%ZZ&&==&%FF`,
    strict,
  );

  for (const [name, param] of Object.entries(route.params ?? {})) {
    for (const h of hostileParams(param.kind, true)) {
      add(
        `:${name}=${h.value.slice(0, 40)}`,
        withQuery(fill(route.path, { ...params, [name]: h.value }), query),
        h.expect,
      );
    }
  }
  return cases;
}

function jsonBodyCases(route: Route): Case[] {
  const json = route.json!;
  const path = baselinePath(route);
  const intact: Expect = json.baselineOk ? "either" : "refuse";
  const cases: Case[] = [];
  const add = (
    label: string,
    body: string | Uint8Array | undefined,
    contentType: string | undefined,
    expect: Expect,
  ) => cases.push({ label, req: { method: route.method, path, body, contentType }, expect });
  const J = "application/json";
  const valid = json.valid;
  const validText = toJson(valid);

  for (const text of [
    "{",
    '{"a":}',
    "{'a':1}",
    '{"a":1,}',
    "[1,2",
    "NaN",
    "undefined",
    '{"a":1}{"b":2}',
    "\u0000",
    '{"a":"\\u0000',
    validText.slice(0, Math.floor(validText.length / 2)),
    `${validText}garbage`,
    "[".repeat(Math.min(20_000, (route.bodyLimit ?? 64 * 1024) - 1)),
  ]) {
    add(`malformed JSON ${short(text, 30)}`, text, J, "refuse");
  }
  for (const [label, value] of [
    ["an array", []],
    ["an array of the body", [valid]],
    ["a string", "body"],
    ["a number", 42],
    ["null", null],
    ["true", true],
  ] as const) {
    add(`JSON ${label}`, jsonBytes(value), J, "refuse");
  }
  const required = Object.entries(json.fields).filter(([k, f]) => f.required && !k.includes("."));
  add("{}", "{}", J, required.length > 0 ? "refuse" : intact);
  for (const [name] of required) {
    const { [name]: _dropped, ...rest } = valid;
    add(`without ${name}`, jsonBytes(rest), J, "refuse");
  }
  add("an unknown field", jsonBytes({ ...valid, zz_unknown: 1 }), J, "refuse");
  add("__proto__", `{"__proto__":{"polluted":1},${validText.slice(1)}`, J, "refuse");
  add(
    "constructor.prototype",
    `{"constructor":{"prototype":{"polluted":1}},${validText.slice(1)}`,
    J,
    "refuse",
  );
  add("a field twice", `{${validText.slice(1, -1)},${validText.slice(1)}`, J, intact);

  for (const [name, field] of Object.entries(json.fields)) {
    const [outer, inner] = name.split(".") as [string, string | undefined];
    for (const h of hostileFields(field)) {
      let body: Record<string, unknown>;
      if (inner === undefined) body = { ...valid, [outer]: h.value };
      else body = { ...valid, [outer]: { ...(valid[outer] as Record<string, unknown>), [inner]: h.value } };
      add(`${name} = ${h.label}`, jsonBytes(body), J, h.expect);
    }
  }

  const limit = route.bodyLimit ?? 64 * 1024;
  add(`over the ${limit}-byte body limit`, jsonBytes({ ...valid, pad: "x".repeat(limit) }), J, "refuse");
  add("an empty body", "", J, "refuse");
  add("no body and no content type", undefined, undefined, "refuse");
  add("BOM then JSON", `\ufeff${validText}`, J, intact);
  add("charset=utf-8", validText, "application/json; charset=utf-8", intact);
  add("upper-case content type", validText, "APPLICATION/JSON", intact);
  add("JSON sent as UTF-16", Buffer.from(validText, "utf16le"), "application/json; charset=utf-16", "refuse");
  for (const type of [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "application/jsonx",
    ";;;",
  ]) {
    add(`content type ${type}`, validText, type, "refuse");
  }
  add("no content type", validText, undefined, "refuse");
  return cases;
}

/** A body sent to a route that takes none: malformed JSON is still refused; anything else may be ignored. */
function unexpectedBodyCases(route: Route): Case[] {
  const path = baselinePath(route);
  return [
    {
      label: "malformed JSON body",
      req: { method: route.method, path, body: '{"a":', contentType: "application/json" },
      expect: "refuse",
    },
    {
      label: "an unexpected JSON body",
      req: { method: route.method, path, body: '{"x":1}', contentType: "application/json" },
      expect: "either",
    },
    {
      label: "binary body",
      req: { method: route.method, path, body: RANDOM.bytes(64), contentType: "application/octet-stream" },
      expect: "refuse",
    },
  ];
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function methodCases(route: Route, all: readonly Route[]): Case[] {
  const path = baselinePath(route);
  const taken = new Set(
    all.filter((r) => r.part === route.part && r.path === route.path).map((r) => r.method),
  );
  const cases: Case[] = METHODS.filter((m) => !taken.has(m)).map((method) => ({
    label: `method ${method}`,
    req: { method, path },
    expect: "refuse" as const,
  }));
  if (taken.has("GET"))
    cases.push({ label: "HEAD", req: { method: "HEAD", path }, expect: "either", noBody: true });
  if (route.method === "GET")
    cases.push({
      label: "a body on a GET",
      req: { method: "GET", path, body: "garbage", contentType: "application/json" },
      expect: "either",
    });
  return cases;
}

// Hub protobuf routes.

interface SignedCase {
  label: string;
  bytes: Uint8Array;
  /** Certain to be invalid (never stored); otherwise only validated, and may be judged either way. */
  invalid: boolean;
}

async function signedCases(fx: Fixtures): Promise<SignedCase[]> {
  const seed = Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex");
  const fid = fx.alice.fid;
  const data = (fields: DataFields) => messageData(fid, fields);
  const cast = (body: number[]) => data({ body: pbBytes(5, body) });
  const castId = (castFid: bigint | number, hash: ArrayLike<number>) => [
    ...pbInt(1, castFid),
    ...pbBytes(2, hash),
  ];
  const text = pbText(4, "hello");
  const sign = (d: Uint8Array, override?: Envelope) => signedMessage(seed, d, override);
  const list: [string, Uint8Array, boolean][] = [];
  const certain = async (label: string, d: Uint8Array, override?: Envelope) =>
    list.push([label, await sign(d, override), true]);
  const unsure = async (label: string, d: Uint8Array) => list.push([label, await sign(d), false]);

  await unsure("a well-formed cast (the control case)", data({}));
  await certain("network 999", data({ network: 999 }));
  await certain("network testnet", data({ network: 2 }));
  await certain("message type 0", data({ type: 0, body: [] }));
  await certain("message type 99", data({ type: 99 }));
  await certain("message type 18 (channel update)", data({ type: 18 }));
  await certain("fid 2^64-1", data({ fid: (1n << 64n) - 1n }));
  await certain("fid 0", data({ fid: 0 }));
  await certain("another fid's message signed with alice's key", data({ fid: fx.bob.fid }));
  await certain("timestamp 2^32-1", data({ timestamp: 0xffffffff }));
  await unsure("timestamp 0", data({ timestamp: 0 }));
  await certain("cast text of 1025 bytes", cast(pbText(4, "x".repeat(1025))));
  await unsure("cast text that is not UTF-8", cast(pbBytes(4, [0x68, 0xff, 0xfe, 0x69])));
  await certain(
    "11 mentions",
    cast([
      ...text,
      ...Array.from({ length: 11 }, (_, i) => pbInt(2, i + 1)).flat(),
      ...Array.from({ length: 11 }, () => pbInt(5, 0)).flat(),
    ]),
  );
  await certain("mention position past the text", cast([...text, ...pbInt(2, fid), ...pbInt(5, 9999)]));
  await certain("mention positions without mentions", cast([...text, ...pbInt(5, 1), ...pbInt(5, 2)]));
  await certain(
    "5 embeds",
    cast([...text, ...Array.from({ length: 5 }, () => pbBytes(6, pbText(1, "https://e.example/x"))).flat()]),
  );
  await certain(
    "embed url of 1000 bytes",
    cast([...text, ...pbBytes(6, pbText(1, `https://e.example/${"x".repeat(1000)}`))]),
  );
  await certain("parent cast with a 3-byte hash", cast([...text, ...pbBytes(3, castId(fid, [1, 2, 3]))]));
  await certain("parent cast of fid 0", cast([...text, ...pbBytes(3, castId(0, new Uint8Array(20)))]));
  await unsure("parent url that is not a url", cast([...text, ...pbText(7, "not a url")]));
  await certain(
    "parent url of 1000 bytes",
    cast([...text, ...pbText(7, `https://e.example/${"x".repeat(1000)}`)]),
  );
  await unsure("cast type 99", cast([...text, ...pbInt(8, 99)]));
  await certain(
    "cast add with a reaction body",
    data({ body: pbBytes(7, [...pbInt(1, 1), ...pbText(3, "https://e.example")]) }),
  );
  await certain("cast add without a body", data({ body: [] }));
  await certain(
    "cast remove of a 3-byte hash",
    data({ type: MESSAGE_TYPE.castRemove, body: pbBytes(6, pbBytes(1, [1, 2, 3])) }),
  );
  await certain(
    "reaction type 0",
    data({
      type: MESSAGE_TYPE.reactionAdd,
      body: pbBytes(7, [...pbInt(1, 0), ...pbText(3, "https://e.example")]),
    }),
  );
  await certain(
    "reaction type 99",
    data({
      type: MESSAGE_TYPE.reactionAdd,
      body: pbBytes(7, [...pbInt(1, 99), ...pbText(3, "https://e.example")]),
    }),
  );
  await certain(
    "reaction without a target",
    data({ type: MESSAGE_TYPE.reactionAdd, body: pbBytes(7, pbInt(1, 1)) }),
  );
  await certain(
    "reaction to a url of 1000 bytes",
    data({
      type: MESSAGE_TYPE.reactionAdd,
      body: pbBytes(7, [...pbInt(1, 1), ...pbText(3, `https://e.example/${"x".repeat(1000)}`)]),
    }),
  );
  await certain(
    'link of type ""',
    data({ type: MESSAGE_TYPE.linkAdd, body: pbBytes(14, [...pbText(1, ""), ...pbInt(3, fx.bob.fid)]) }),
  );
  await certain(
    "link of a 9-character type",
    data({
      type: MESSAGE_TYPE.linkAdd,
      body: pbBytes(14, [...pbText(1, "followers"), ...pbInt(3, fx.bob.fid)]),
    }),
  );
  await certain(
    "link without a target",
    data({ type: MESSAGE_TYPE.linkAdd, body: pbBytes(14, pbText(1, "follow")) }),
  );
  await unsure(
    "link to fid 2^64-1",
    data({
      type: MESSAGE_TYPE.linkAdd,
      body: pbBytes(14, [...pbText(1, "follow"), ...pbInt(3, (1n << 64n) - 1n)]),
    }),
  );
  await certain(
    "user data type 999",
    data({ type: MESSAGE_TYPE.userDataAdd, body: pbBytes(12, [...pbInt(1, 999), ...pbText(2, "x")]) }),
  );
  await certain(
    "username with spaces",
    data({
      type: MESSAGE_TYPE.userDataAdd,
      body: pbBytes(12, [...pbInt(1, 6), ...pbText(2, "not a name!")]),
    }),
  );
  await certain(
    "bio of 1000 bytes",
    data({
      type: MESSAGE_TYPE.userDataAdd,
      body: pbBytes(12, [...pbInt(1, 3), ...pbText(2, "x".repeat(1000))]),
    }),
  );
  await certain(
    "verification of a 3-byte address",
    data({
      type: MESSAGE_TYPE.verificationAdd,
      body: pbBytes(9, [
        ...pbBytes(1, [1, 2, 3]),
        ...pbBytes(2, RANDOM.bytes(65)),
        ...pbBytes(3, RANDOM.bytes(32)),
      ]),
    }),
  );
  await certain(
    "verification with a random claim signature",
    data({
      type: MESSAGE_TYPE.verificationAdd,
      body: pbBytes(9, [
        ...pbBytes(1, RANDOM.bytes(20)),
        ...pbBytes(2, RANDOM.bytes(65)),
        ...pbBytes(3, RANDOM.bytes(32)),
      ]),
    }),
  );
  await certain(
    "verification protocol 99",
    data({
      type: MESSAGE_TYPE.verificationAdd,
      body: pbBytes(9, [
        ...pbBytes(1, RANDOM.bytes(20)),
        ...pbBytes(2, RANDOM.bytes(65)),
        ...pbBytes(3, RANDOM.bytes(32)),
        ...pbInt(7, 99),
      ]),
    }),
  );
  await certain("username proof of random bytes", data({ type: 12, body: pbBytes(15, RANDOM.bytes(80)) }));
  await unsure(
    "frame action, button 99",
    data({ type: 13, body: pbBytes(16, [...pbText(1, "https://f.example"), ...pbInt(2, 99)]) }),
  );
  await unsure(
    "frame action without a cast",
    data({ type: 13, body: pbBytes(16, [...pbText(1, "https://f.example"), ...pbInt(2, 1)]) }),
  );
  await unsure(
    "link compact state with 9000 targets",
    data({
      type: 14,
      body: pbBytes(17, [
        ...pbText(1, "follow"),
        ...Array.from({ length: 9000 }, (_, i) => pbInt(2, i + 1)).flat(),
      ]),
    }),
  );
  await unsure(
    "lend storage",
    data({ type: 15, body: pbBytes(18, [...pbInt(1, fx.bob.fid), ...pbInt(2, 1)]) }),
  );
  await unsure("key add", data({ type: 16, body: pbBytes(19, pbBytes(1, RANDOM.bytes(32))) }));
  await unsure("an unknown field 99 in the data", Uint8Array.from([...data({}), ...pbInt(99, 1)]));
  const good = data({});
  await certain("hash scheme 99", good, { hashScheme: 99 });
  await certain("hash scheme 0", good, { hashScheme: 0 });
  await certain("signature scheme 2 (EIP-712) on an Ed25519 signature", good, { signatureScheme: 2 });
  await certain("signature scheme 0", good, { signatureScheme: 0 });
  await certain("hash of other bytes", good, { hash: blake3(Uint8Array.from([1, 2, 3]), { dkLen: 20 }) });
  await certain("19-byte hash", good, { hash: blake3(good, { dkLen: 19 }) });
  await certain("32-byte hash", good, { hash: blake3(good, { dkLen: 32 }) });
  await certain("63-byte signature", good, { signature: RANDOM.bytes(63) });
  await certain("random 64-byte signature", good, { signature: RANDOM.bytes(64) });
  await certain("31-byte signer", good, { signer: RANDOM.bytes(31) });
  await certain("unregistered signer key", good, { signer: RANDOM.bytes(32) });
  await certain("empty signer", good, { signer: new Uint8Array() });
  await certain("empty data bytes", new Uint8Array());
  return list.map(([label, bytes, invalid]) => ({ label, bytes, invalid }));
}

/** Wire-format garbage: every one is unreadable as a Message. */
function malformedProtobuf(): [string, Uint8Array][] {
  return [
    ["an 11-byte varint", Uint8Array.from([0x08, ...Array(10).fill(0xff), 0x01])],
    ["wire type 6", Uint8Array.from([0x0e, 0x01])],
    ["wire type 7", Uint8Array.from([0x0f, 0x01])],
    ["an unterminated group", Uint8Array.from([0x0b, 0x08, 0x01])],
    ["an end group without a start", Uint8Array.from([0x0c])],
    ["a length of 2^63", Uint8Array.from([0x12, ...varint(1n << 63n)])],
    ["a length past the end", Uint8Array.from([0x12, 0x40, 0x01, 0x02])],
    ["field number 0", Uint8Array.from([0x00, 0x01])],
    ["data bytes holding wire type 7", Uint8Array.from(pbBytes(7, [0x0f, 0x01]))],
    ["data (field 1) holding garbage", Uint8Array.from(pbBytes(1, [0x12, 0x7f]))],
    ["64 KiB of 0xff", new Uint8Array(64 * 1024).fill(0xff)],
    ["a hash field as a varint", Uint8Array.from(pbInt(2, 5))],
  ];
}

const OCTET = "application/octet-stream";

async function protoCases(route: Route, fx: Fixtures): Promise<Case[]> {
  const cases: Case[] = [];
  const random = seeded(0xb10b + route.path.length);
  const post = (
    label: string,
    body: Uint8Array | string | undefined,
    expect: Expect,
    contentType: string | null = OCTET,
    accepted?: Case["accepted"],
  ) =>
    cases.push({
      label,
      req: { method: "POST", path: route.path, body, contentType: contentType ?? undefined },
      expect,
      accepted: bulk ? accepted : undefined,
    });
  const limit = route.bodyLimit!;
  const validate = route.proto === "validate";
  const bulk = route.proto === "bulk";
  const wrap = (bytes: Uint8Array) => (bulk ? Uint8Array.from(pbBytes(1, bytes)) : bytes);
  // A bulk submit answers 200 with one outcome per message; every outcome of hostile input is an error.
  const outcomes: Case["accepted"] = (body) => {
    if (!isObject(body) || !Array.isArray(body.messages)) return "a bulk answer without messages";
    const stored = body.messages.filter((m) => !isObject(m) || typeof m.errCode !== "string");
    if (stored.length > 0) return `${stored.length} hostile message(s) stored`;
    const unclear = body.messages
      .map((m) => sentenceProblem((m as Record<string, unknown>).message))
      .find(Boolean);
    return unclear;
  };
  const bulkExpect: Expect = bulk ? "either" : "refuse";

  post("an empty body", new Uint8Array(), "refuse");
  post("no body at all", undefined, "refuse", null);
  for (let i = 0; i < 40; i++) {
    const bytes = random.bytes(1 + random.int(i < 30 ? 200 : 4000));
    post(`random bytes #${i}`, bytes, bulk ? "either" : "refuse", OCTET, outcomes);
  }
  const valid = fx.castBytes;
  const step = Math.max(1, Math.floor(valid.length / 60));
  for (let cut = 1; cut < valid.length; cut += step) {
    post(
      `the cast cut to ${cut} of ${valid.length} bytes`,
      wrap(valid.subarray(0, cut)),
      bulkExpect,
      OCTET,
      outcomes,
    );
  }
  for (const [label, bytes] of malformedProtobuf()) post(label, wrap(bytes), bulkExpect, OCTET, outcomes);
  for (const sc of await signedCases(fx)) {
    if (validate) post(sc.label, sc.bytes, sc.invalid ? "refuse" : "either");
    else if (sc.invalid) post(sc.label, wrap(sc.bytes), bulkExpect, OCTET, outcomes);
  }
  if (validate) {
    // Flipped bits: a flip in a field that does not count may leave the same valid message.
    for (let i = 0; i < 60; i++) {
      const mangled = valid.slice();
      const at = random.int(mangled.length);
      mangled[at] = mangled[at]! ^ (1 + random.int(255));
      post(`the cast with byte ${at} flipped`, mangled, "either");
    }
  }
  // Validation does not look at the store: the stored cast is still a valid message there.
  post("the stored cast again (a duplicate)", wrap(valid), validate ? "either" : bulkExpect, OCTET, outcomes);
  if (bulk) {
    post(
      "1001 messages",
      Uint8Array.from(Array.from({ length: 1001 }, () => pbBytes(1, [0x08, 0x01])).flat()),
      "refuse",
    );
    post("field 1 as a varint", Uint8Array.from(pbInt(1, 7)), "refuse");
    post("the cast cut inside its length prefix", Uint8Array.from(pbBytes(1, valid).slice(0, 2)), "refuse");
  }
  post(`over the ${limit}-byte body limit`, new Uint8Array(limit + 1), "refuse");
  for (const type of [
    "application/json",
    "text/plain",
    "application/x-protobuf",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
  ]) {
    post(`content type ${type}`, wrap(valid), "refuse", type);
  }
  post("no content type", wrap(valid), "refuse", null);
  post(
    "JSON of a message",
    JSON.stringify({ data: { type: 1, fid: fx.alice.fid } }),
    "refuse",
    "application/json",
  );
  return cases;
}

// Registry specials.

async function registryTransferCases(fx: Fixtures): Promise<Case[]> {
  const namer = fx.namers[1]!;
  const claim = namer.secondClaim;
  const post = (label: string, body: Record<string, unknown>) => ({
    label,
    req: { method: "POST", path: "/transfers", body: jsonBytes(body), contentType: "application/json" },
    expect: "refuse" as const,
  });
  return [
    post("from equals to", { ...claim, from: claim.to }),
    post("a name with upper case", { ...claim, name: "HOSTILE" }),
    post("a 17-character name", { ...claim, name: "a".repeat(17) }),
    post("an empty signature", { ...claim, signature: "0x" }),
    post("a signature of 0xff bytes", { ...claim, signature: `0x${"ff".repeat(65)}` }),
    post("a 1024-byte signature", { ...claim, signature: `0x${"11".repeat(1024)}` }),
    post("an owner that is not the custody address", { ...claim, owner: `0x${"12".repeat(20)}` }),
    post("a fid that is neither from nor to", { ...claim, fid: fx.bob.fid + 1000 }),
    post("unregistering a name the fid does not hold", { ...claim, from: claim.to, to: 0 }),
    post("registering to fid 2^53-1", { ...claim, to: MAX_SAFE, fid: MAX_SAFE }),
    post("a timestamp far in the future", { ...claim, timestamp: MAX_SAFE }),
    post("a timestamp of 0", { ...claim, timestamp: 0 }),
  ];
}

function ccipGetCases(fx: Fixtures): Case[] {
  const sender = `0x${"00".repeat(20)}`;
  const get = (label: string, rest: string, expect: Expect): Case => ({
    label,
    req: { method: "GET", path: `/ccip/${rest}` },
    expect,
  });
  return [
    get("a well-formed resolve call", `${sender}/${fx.ccipData}.json`, "either"),
    get("sender not hex", `0xzz/${fx.ccipData}.json`, "refuse"),
    get("sender of 19 bytes", `0x${"00".repeat(19)}/${fx.ccipData}.json`, "refuse"),
    get("calldata of odd length", `${sender}/0x123.json`, "refuse"),
    get("calldata not hex", `${sender}/0xzz.json`, "refuse"),
    get("no .json suffix", `${sender}/${fx.ccipData}`, "refuse"),
    get("an unknown selector", `${sender}/0xdeadbeef.json`, "refuse"),
    get("a resolve call cut short", `${sender}/${fx.ccipData.slice(0, 40)}.json`, "refuse"),
    get("a multicall of garbage", `${sender}/0xac9650d8${"ff".repeat(64)}.json`, "refuse"),
    get(
      "a resolve call with a huge offset",
      `${sender}/0x9061b923${"f".repeat(64)}${"0".repeat(64)}.json`,
      "refuse",
    ),
    get("%FF in the path", `${sender}/%FF.json`, "refuse"),
    get("%ZZ in the path", `%ZZ/${fx.ccipData}.json`, "refuse"),
    get("nothing after /ccip/", "", "refuse"),
    get("10 KiB of zero calldata", `${sender}/0x9061b923${"00".repeat(5000)}.json`, "either"),
  ];
}

// ---------------------------------------------------------------------------------------------
// Setup helpers.

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readJson(
  base: string,
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, body: await response.json() };
}

const toHexString = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

async function registerName(registry: string, account: AccountDetails, name: string, timestamp: number) {
  const custody = privateKeyToAccount(account.custodyPrivateKey);
  const claim = core.makeUserNameProofClaim({ name, owner: custody.address, timestamp });
  const signature = (
    await new core.ViemLocalEip712Signer(custody).signUserNameProofClaim(claim)
  )._unsafeUnwrap();
  return {
    name,
    from: 0,
    to: account.fid,
    fid: account.fid,
    owner: custody.address,
    timestamp,
    signature: toHexString(signature),
  };
}

/** DNS wire format of a name: length-prefixed labels, then 0. */
function dnsName(name: string): `0x${string}` {
  const bytes = name.split(".").flatMap((label) => [label.length, ...Buffer.from(label)]);
  return toHex(Uint8Array.from([...bytes, 0]));
}

/** Stand-in fixtures, only to list the routes (and name the tests) before the stack starts. */
function placeholderFixtures(): Fixtures {
  const account: AccountDetails = {
    fid: 1,
    custodyAddress: "0x",
    custodyPrivateKey: "0x",
    recoveryAddress: "0x",
    signerPublicKey: "0x",
    signerPrivateKey: "0x",
    storageUnits: 1,
    warning: "",
  };
  const namer = { account, name: "x", secondClaim: {} };
  return {
    urls: { registry: "", hub: "", api: "", chain: "" },
    alice: account,
    bob: account,
    namers: [namer, namer],
    aliceName: "x",
    castHash: "0x",
    castBytes: new Uint8Array(),
    keyRequestToken: "x",
    keyRequestBody: {},
    approvalBody: {},
    demoAction: {},
    ccipData: "0x",
  };
}

// ---------------------------------------------------------------------------------------------
// The sweep.

const engines = await testEngines();
const crashes: string[] = [];
process.on("uncaughtException", (error) =>
  crashes.push(`uncaught exception: ${error.stack ?? String(error)}`),
);
process.on("unhandledRejection", (error) =>
  crashes.push(`unhandled rejection: ${String((error as Error)?.stack ?? error)}`),
);

for (const engine of engines) {
  // The sweep's input handling does not depend on the engine; PostgreSQL runs it again for the writes.
  describe(`hostile input to the whole stack on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: RunningStack;
    let dataDir: string;
    let drop: () => Promise<void>;
    let watch: WriteWatch;
    let fx: Fixtures;
    const errorLogs: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n")) {
          if (line.trim() === "") continue;
          try {
            const entry = JSON.parse(line) as {
              level?: number;
              msg?: string;
              err?: { message?: string };
              part?: string;
            };
            if ((entry.level ?? 0) >= 50)
              errorLogs.push(`${entry.part ?? "?"}: ${entry.msg ?? ""} ${entry.err?.message ?? ""}`.trim());
          } catch {
            errorLogs.push(line);
          }
        }
        done();
      },
    });

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      dataDir = mkdtempSync(join(tmpdir(), "castnet-hostile-"));
      const env: NodeJS.ProcessEnv =
        created.config.engine === "postgres" ? { DATABASE_URL: created.config.url } : {};
      const config = parseStartOptions(
        [...["--data-dir", dataDir, "--block-time", "0", "--seed", "demo"], ...FREE_PORTS],
        env,
      );
      stack = await startStack(config, pino({ level: "error" }, logStream), {
        afterListen: seedOnStart(config),
      });
      const urls = stack.urls as Record<Part, string>;

      const alice = await createAccount({ chainUrl: urls.chain, units: 1 });
      const bob = await createAccount({ chainUrl: urls.chain, units: 1 });
      const carol = await createAccount({ chainUrl: urls.chain, units: 1 });
      await until("the hub to see every signer", async () => {
        for (const account of [alice, bob, carol]) {
          const r = await readJson(urls.hub, `/v1/onChainSignersByFid?fid=${account.fid}`);
          if (r.status !== 200 || !(r.body as { events: unknown[] }).events.length) return undefined;
        }
        return true;
      });

      // Names, so that reads find something and POST /transfers baselines are refused late
      // (TOO_MANY_NAMES: each namer already holds a name). Two namers share the per-fid rate limit.
      const now = Math.floor(Date.now() / 1000);
      const namers: Fixtures["namers"] = [];
      for (const [account, name] of [
        [alice, `hostile-${alice.fid}`],
        [carol, `hostile-${carol.fid}`],
      ] as const) {
        const registered = await readJson(urls.registry, "/transfers", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(await registerName(urls.registry, account, name, now)),
        });
        assert.equal(registered.status, 200, JSON.stringify(registered.body));
        namers.push({
          account,
          name,
          secondClaim: await registerName(urls.registry, account, `${name}-b`, now),
        });
      }
      await until("the hub to merge the fname proofs", async () => {
        for (const { name } of namers) {
          if ((await fetch(`${urls.hub}/v1/userNameProofByName?name=${name}`)).status !== 200)
            return undefined;
        }
        return true;
      });

      // A cast, stored, so that reads find it and resubmitting it is a duplicate.
      const signer = new core.NobleEd25519Signer(Buffer.from(alice.signerPrivateKey.slice(2), "hex"));
      const cast = (
        await core.makeCastAdd(
          {
            text: "hostile fixture",
            embeds: [],
            embedsDeprecated: [],
            mentions: [],
            mentionsPositions: [],
            type: 0,
          },
          { fid: alice.fid, network: core.FarcasterNetwork.MAINNET },
          signer,
        )
      )._unsafeUnwrap();
      const castBytes = core.Message.encode(cast).finish();
      const submitted = await fetch(`${urls.hub}/v1/submitMessage`, {
        method: "POST",
        headers: { "content-type": OCTET },
        body: castBytes,
      });
      assert.equal(submitted.status, 200, await submitted.text());
      // The hand-built messages below reach the hub's deepest checks only if this encoder is right.
      const control = await signedMessage(
        Buffer.from(alice.signerPrivateKey.slice(2), "hex"),
        messageData(alice.fid, {}),
      );
      const validated = await fetch(`${urls.hub}/v1/validateMessage`, {
        method: "POST",
        headers: { "content-type": OCTET },
        body: control,
      });
      assert.equal(validated.status, 200, await validated.text());

      // A pending signed key request by bob, and a second request body refused at its last check:
      // well signed and sponsored by bob, who is not signed up as a sponsor.
      const bobCustody = privateKeyToAccount(bob.custodyPrivateKey);
      const deadline = now + 86_400;
      const keyRequest = async () => {
        const key = RANDOM.bytes(32);
        const signature = (
          await new core.ViemLocalEip712Signer(bobCustody).signKeyRequest({
            requestFid: BigInt(bob.fid),
            key,
            deadline: BigInt(deadline),
          })
        )._unsafeUnwrap();
        return { key: toHexString(key), requestFid: bob.fid, deadline, signature: toHexString(signature) };
      };
      const pending = await readJson(urls.api, "/v2/signed-key-request", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(await keyRequest()),
      });
      assert.equal(pending.status, 200, JSON.stringify(pending.body));
      const keyRequestToken = (pending.body as { result: { signedKeyRequest: { token: string } } }).result
        .signedKeyRequest.token;
      const second = await keyRequest();
      const sponsorSignature = await bobCustody.signMessage({
        message: { raw: second.signature as `0x${string}` },
      });
      const keyRequestBody = { ...second, sponsorship: { sponsorFid: bob.fid, signature: sponsorSignature } };
      assert.equal(
        (await fetch(`${urls.api}/v1/admin/sponsors/${bob.fid}`)).status,
        404,
        "bob must not be a sponsor",
      );

      const actions = await readJson(urls.api, "/v1/admin/actions");
      const demo = (actions.body as { result: { actions: Record<string, unknown>[] } }).result.actions.find(
        (a) => a.type === "cast",
      )!;
      const demoAction = {
        type: "cast",
        name: demo.name,
        icon: demo.icon,
        description: demo.description,
        aboutUrl: demo.aboutUrl,
        actionUrl: demo.actionUrl,
        postUrl: (demo.action as { postUrl: string }).postUrl,
      };

      const ccipData = encodeFunctionData({
        abi: [
          {
            type: "function",
            name: "resolve",
            stateMutability: "view",
            inputs: [
              { name: "name", type: "bytes" },
              { name: "data", type: "bytes" },
            ],
            outputs: [{ name: "", type: "bytes" }],
          },
        ],
        functionName: "resolve",
        args: [dnsName(`${namers[0]!.name}.example.eth`), "0x3b3b57de"],
      });

      fx = {
        urls,
        alice,
        bob,
        namers,
        aliceName: namers[0]!.name,
        castHash: toHexString(cast.hash),
        castBytes,
        keyRequestToken,
        keyRequestBody,
        approvalBody: {
          token: keyRequestToken,
          fid: alice.fid,
          nonce: 0,
          deadline,
          signature: toHexString(RANDOM.bytes(65)),
        },
        demoAction,
        ccipData,
      };

      watch =
        created.config.engine === "sqlite" ? sqliteWatch(dataDir) : await postgresWatch(created.config.url);
      // Quiet: nothing commits any more before the sweep starts.
      await until(
        "the stack to go quiet",
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return (await watch.changes()).length === 0 ? true : undefined;
        },
        10_000,
      );
      // The watch must see a write when there is one: an operator write that is accepted.
      const accepted = await fetch(`${urls.api}/v1/admin/sponsors/4244`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: '{"credits":1}',
      });
      assert.equal(accepted.status, 200, await accepted.text());
      assert.deepEqual(await watch.changes(["api"]), ["api_sponsors"]);
    });

    after(async () => {
      await watch?.close();
      await stack?.close();
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function healthProblems(): Promise<string[]> {
      const problems: string[] = [];
      for (const part of PARTS) {
        try {
          const reply = await send(fx.urls[part], { method: "GET", path: "/_health" });
          if (reply.status !== 200 || reply.text !== '{"status":"ok"}')
            problems.push(`${part} stopped serving: GET /_health → ${reply.status} ${short(reply.text)}`);
        } catch (error) {
          problems.push(`${part} stopped serving: GET /_health → ${(error as Error).message}`);
        }
      }
      return problems;
    }

    /** Sends each case, judges the answer and watches for writes; returns every problem found. */
    async function sweep(
      part: Part,
      cases: readonly Case[],
      options: { shapes?: readonly Shape[]; write?: boolean } = {},
    ) {
      const problems: string[] = [];
      const shapes = options.shapes ?? [part];
      const perCase = watch.cheap || options.write === true;
      await watch.changes();
      for (const c of cases) {
        let reply: Reply;
        try {
          reply = await send(fx.urls[part], c.req);
        } catch (error) {
          problems.push(`${describeReq(part, c.req)} {${c.label}} → no answer: ${(error as Error).message}`);
          continue;
        }
        if (process.env.HOSTILE_LOG === "1")
          console.log(`${describeReq(part, c.req)} {${c.label}} → ${reply.status} ${short(reply.text, 200)}`);
        problems.push(...judge(part, c, reply, c.shapes ?? shapes));
        if (!perCase) continue;
        const changed = await watch.changes(watch.cheap ? PARTS : [part]);
        if (changed.length > 0 && !(reply.status >= 200 && reply.status < 300)) {
          problems.push(
            `${describeReq(part, c.req)} {${c.label}} → ${reply.status} ${short(reply.text)}: refused, yet wrote to ${changed.join(", ")}`,
          );
        }
      }
      if (!perCase) {
        const changed = await watch.changes();
        if (changed.length > 0)
          problems.push(`${part}: the route's hostile requests wrote to ${changed.join(", ")}`);
      }
      problems.push(...(await healthProblems()));
      return problems;
    }

    function report(problems: readonly string[]) {
      const logs = errorLogs.splice(0);
      const all = [...problems, ...logs.map((l) => `error logged: ${l}`), ...crashes.splice(0)];
      if (all.length > 0) assert.fail(`${all.length} problem(s):\n${all.join("\n")}`);
    }

    // One test per route, so that each finding names its route. Route definitions need the fixtures,
    // so the list is built here from a placeholder and read again inside each test.
    const placeholder = routes(placeholderFixtures());

    // The hand-kept list is what knows each route's parameters; the parts' own route tables say
    // whether it is complete, so that a new route is swept or this test names it.
    it("the route list is every route the parts register, and no other", () => {
      const key = (part: Part, method: string, path: string) => `${part} ${method} ${path}`;
      const registered = PARTS.flatMap((part) =>
        (stack.routes[part] ?? []).map(({ method, url }) => key(part, method, url)),
      );
      const listed = placeholder.map((route) => key(route.part, route.method, route.path));
      const problems = [
        ...registered
          .filter((route) => !listed.includes(route))
          .map((route) => `${route}: registered, but missing from routes() in this file`),
        ...listed
          .filter((route) => !registered.includes(route))
          .map((route) => `${route}: in routes() in this file, but no part registers it`),
      ];
      if (problems.length > 0) assert.fail(`${problems.length} problem(s):\n${problems.join("\n")}`);
    });
    placeholder.forEach((shape, index) => {
      it(`${shape.part} ${shape.method} ${shape.path}`, async () => {
        const all = routes(fx);
        const route = all[index]!;
        const cases: Case[] = [];
        if (route.proto) cases.push(...(await protoCases(route, fx)));
        else {
          if (route.baseline !== "skip" && !route.json?.baselineOk)
            cases.push({
              label: "the baseline request",
              req: { method: route.method, path: baselinePath(route), ...baselineBody(route) },
              expect: route.json ? (route.baseline ?? "refuse") : "either",
            });
          if (route.path !== "/ccip/*") cases.push(...parameterCases(route));
          if (route.json) cases.push(...jsonBodyCases(route));
          if (route.noBody) cases.push(...unexpectedBodyCases(route));
          if (route.path !== "/ccip/*") cases.push(...methodCases(route, all));
        }
        if (route.extra) cases.push(...(await route.extra(fx)));
        if (route.page) for (const c of cases) c.page = true;
        const sent = (route.stream ? cases.filter((c) => c.expect === "refuse") : cases).map((c) =>
          route.text ? { ...c, text: true } : c,
        );
        report(await sweep(route.part, sent, { shapes: route.shapes, write: route.write }));
      });
    });

    for (const part of PARTS) {
      it(`${part}: unknown routes, odd methods and malformed HTTP`, async () => {
        const cases: Case[] = [
          { label: "unknown path", req: { method: "GET", path: "/nope" }, expect: "refuse" },
          {
            label: "unknown path with a body",
            req: { method: "POST", path: "/nope", body: "{}", contentType: "application/json" },
            expect: "refuse",
          },
          {
            label: "unknown versioned path",
            req: { method: "GET", path: "/v1/nope?fid=1" },
            expect: "refuse",
          },
          { label: "DELETE /", req: { method: "DELETE", path: "/" }, expect: "refuse" },
          {
            label: "percent-encoding that is not UTF-8",
            req: { method: "GET", path: "/%FF%FE" },
            expect: "refuse",
          },
          { label: "broken percent-encoding", req: { method: "GET", path: "/v1/%ZZ" }, expect: "refuse" },
          {
            label: "dot segments",
            req: { method: "GET", path: "/..%2F..%2Fetc%2Fpasswd" },
            expect: "refuse",
          },
          { label: "double slash", req: { method: "GET", path: "//" }, expect: "refuse" },
          {
            label: "a path of 8000 characters",
            req: { method: "GET", path: `/${"a".repeat(8000)}` },
            expect: "refuse",
          },
          { label: "upper-case path", req: { method: "GET", path: "/_HEALTH" }, expect: "refuse" },
          { label: "PROPFIND", req: { method: "PROPFIND", path: "/_health" }, expect: "refuse" },
          { label: "PUT /_health", req: { method: "PUT", path: "/_health" }, expect: "refuse" },
          {
            label: "OPTIONS without a CORS preflight",
            req: { method: "OPTIONS", path: "/_health" },
            expect: "either",
          },
          {
            label: "a CORS preflight",
            req: {
              method: "OPTIONS",
              path: "/_health",
              headers: { origin: "https://app.example", "access-control-request-method": "GET" },
            },
            expect: "either",
            noBody: true,
          },
          {
            label: "a query string over 16 KiB",
            req: { method: "GET", path: `/_health?x=${"a".repeat(20_000)}` },
            expect: "refuse",
          },
          {
            label: "a header over 16 KiB",
            req: { method: "GET", path: "/_health", headers: { "x-big": "a".repeat(20_000) } },
            expect: "refuse",
          },
        ];
        const problems = await sweep(part, cases);
        for (const [label, raw] of [
          ["a request line that is not HTTP", "FOO /_health HTTP/1.1\r\nHost: x\r\n\r\n"],
          ["TLS bytes on a plain port", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n"],
          ["a negative content-length", "POST /_health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"],
          [
            "a broken chunked body",
            "POST /_health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
          ],
        ] as const) {
          const reply = await sendRaw(fx.urls[part], Buffer.from(raw, "latin1"));
          problems.push(
            ...judge(part, { label, req: { method: "RAW", path: short(raw, 40) }, expect: "refuse" }, reply, [
              part,
            ]),
          );
        }
        problems.push(...(await healthProblems()));
        report(problems);
      });
    }

    it("numbers in query strings and paths are plain decimal integers, not hex, exponents or padded", async () => {
      const forms = ["0x10", "1e1", "%201", "%2B1", "1.0"];
      const probes: [Part, (n: string) => string][] = [
        ["registry", (n) => `/transfers?fid=${n}`],
        ["hub", (n) => `/v1/castsByFid?fid=${n}`],
        ["api", (n) => `/v1/user-following-channels?fid=3&limit=${n}`],
        ["chain", (n) => `/v1/events?limit=${n}`],
        ["chain", (n) => `/v1/fids/${n}`],
      ];
      const problems: string[] = [];
      for (const [part, path] of probes) {
        const cases = forms.map((n): Case => ({
          label: `number written ${n}`,
          req: { method: "GET", path: path(n) },
          expect: "refuse",
        }));
        problems.push(...(await sweep(part, cases)));
      }
      // The same leniency on an operator write: PUT /v1/admin/power-badges/1e1 would grant fid 10.
      const before = (await readJson(fx.urls.api, "/v1/admin/power-badges")).body as {
        result: { grants: number[] };
      };
      const granted = await send(fx.urls.api, {
        method: "PUT",
        path: "/v1/admin/power-badges/1e1",
        body: '{"badge":"grant"}',
        contentType: "application/json",
      });
      const afterGrant = (await readJson(fx.urls.api, "/v1/admin/power-badges")).body as {
        result: { grants: number[] };
      };
      if (granted.status < 400 || afterGrant.result.grants.length !== before.result.grants.length)
        problems.push(
          `api: PUT /v1/admin/power-badges/1e1 body {"badge":"grant"} → ${granted.status} ${short(granted.text, 200)}: ` +
            `"1e1" read as fid 10 (grants ${JSON.stringify(before.result.grants)} → ${JSON.stringify(afterGrant.result.grants)})`,
        );
      report(problems);
    });

    it("strings with NUL characters that reach a write are stored or refused, never a failure", async () => {
      // NUL is a valid character in JSON and in protobuf strings; each request below is otherwise
      // acceptable, so a part may store it (2xx) or refuse it (4xx), but not fail.
      const J = "application/json";
      const apiCases: Case[] = [
        {
          label: "a new channel whose name holds NUL",
          req: {
            method: "POST",
            path: "/v1/admin/channels",
            contentType: J,
            body: JSON.stringify({
              id: "nul-test",
              url: "https://example.com/nul",
              name: "nul\u0000name",
              imageUrl: "https://example.com/nul.png",
            }),
          },
          expect: "either",
        },
        {
          label: "a channel description holding NUL",
          req: {
            method: "PATCH",
            path: "/v1/admin/channels/welcome",
            contentType: J,
            body: JSON.stringify({ description: "nul\u0000description" }),
          },
          expect: "either",
        },
        {
          label: "a new action whose name holds NUL",
          req: {
            method: "POST",
            path: "/v1/admin/actions",
            contentType: J,
            body: JSON.stringify({
              ...fx.demoAction,
              name: "nul\u0000action",
              actionUrl: "https://example.com/nul-action",
            }),
          },
          expect: "either",
        },
      ];
      const bobCustody = privateKeyToAccount(fx.bob.custodyPrivateKey);
      const key = RANDOM.bytes(32);
      const deadline = Math.floor(Date.now() / 1000) + 3600;
      const signature = (
        await new core.ViemLocalEip712Signer(bobCustody).signKeyRequest({
          requestFid: BigInt(fx.bob.fid),
          key,
          deadline: BigInt(deadline),
        })
      )._unsafeUnwrap();
      apiCases.push({
        label: "a signed key request whose redirectUrl holds NUL",
        req: {
          method: "POST",
          path: "/v2/signed-key-request",
          contentType: J,
          body: JSON.stringify({
            key: toHexString(key),
            requestFid: fx.bob.fid,
            deadline,
            signature: toHexString(signature),
            redirectUrl: "https://example.com/\u0000",
          }),
        },
        expect: "either",
      });

      const seed = Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex");
      const data = (fields: DataFields) => messageData(fx.alice.fid, fields);
      const hubCases: Case[] = [];
      for (const [label, fields] of [
        [
          "a link whose type holds NUL",
          {
            type: MESSAGE_TYPE.linkAdd,
            body: pbBytes(14, [...pbText(1, "f\u0000"), ...pbInt(3, fx.bob.fid)]),
          },
        ],
        [
          "a reaction to a url holding NUL",
          {
            type: MESSAGE_TYPE.reactionAdd,
            body: pbBytes(7, [...pbInt(1, 1), ...pbText(3, "https://example.com/\u0000")]),
          },
        ],
        [
          "a cast whose parent url holds NUL",
          { body: pbBytes(5, [...pbText(4, "x"), ...pbText(7, "https://example.com/\u0000")]) },
        ],
        ["a cast whose text holds NUL", { body: pbBytes(5, pbText(4, "nul\u0000text")) }],
        [
          "a display name holding NUL",
          {
            type: MESSAGE_TYPE.userDataAdd,
            body: pbBytes(12, [...pbInt(1, 2), ...pbText(2, "nul\u0000name")]),
          },
        ],
      ] as const) {
        hubCases.push({
          label,
          req: {
            method: "POST",
            path: "/v1/submitMessage",
            contentType: OCTET,
            body: await signedMessage(seed, data(fields)),
          },
          expect: "either",
        });
      }
      const problems = [
        ...(await sweep("api", apiCases, { write: true })),
        ...(await sweep("hub", hubCases, { write: true })),
      ];
      report(problems);
    });

    it("one hostile message does not fail the valid messages merged with it", async () => {
      // Submits are committed in groups; a message the database cannot take must fail alone.
      const seed = Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex");
      const signer = new core.NobleEd25519Signer(seed);
      const cast = async (text: string): Promise<Uint8Array> =>
        core.Message.encode(
          (
            await core.makeCastAdd(
              { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
              { fid: fx.alice.fid, network: core.FarcasterNetwork.MAINNET },
              signer,
            )
          )._unsafeUnwrap(),
        ).finish();
      const nulLink = (type: string) =>
        signedMessage(
          seed,
          messageData(fx.alice.fid, {
            type: MESSAGE_TYPE.linkAdd,
            body: pbBytes(14, [...pbText(1, type), ...pbInt(3, fx.bob.fid)]),
          }),
        );
      const submit = (body: Uint8Array, path = "/v1/submitMessage"): Req => ({
        method: "POST",
        path,
        body,
        contentType: OCTET,
      });
      const problems: string[] = [];
      const neighbours = await Promise.all(Array.from({ length: 8 }, (_, i) => cast(`neighbour ${i}`)));
      const hostile = submit(await nulLink("g\u0000"));
      const replies = await Promise.all([
        ...neighbours.map((c) => send(fx.urls.hub, submit(c))),
        send(fx.urls.hub, hostile),
      ]);
      replies.slice(0, -1).forEach((reply, i) => {
        if (reply.status !== 200)
          problems.push(
            `hub: a valid cast submitted beside a NUL link → ${reply.status} ${short(reply.text, 300)}: its neighbour failed it`,
          );
        else if (
          (JSON.parse(reply.text) as { data?: { castAddBody?: { text?: string } } }).data?.castAddBody
            ?.text !== `neighbour ${i}`
        )
          problems.push(
            `hub: a valid cast submitted beside a NUL link → 200 but not the cast: ${short(reply.text)}`,
          );
      });
      problems.push(
        ...judge(
          "hub",
          { label: "a NUL link among valid casts", req: hostile, expect: "either" },
          replies.at(-1)!,
          ["hub"],
        ),
      );

      const bulkCasts = [await cast("bulk neighbour 1"), await cast("bulk neighbour 2")];
      const bulk = submit(
        Uint8Array.from([
          ...pbBytes(1, bulkCasts[0]!),
          ...pbBytes(1, await nulLink("h\u0000")),
          ...pbBytes(1, bulkCasts[1]!),
        ]),
        "/v1/submitBulkMessages",
      );
      const bulkReply = await send(fx.urls.hub, bulk);
      if (bulkReply.status !== 200) {
        problems.push(
          `${describeReq("hub", bulk)} {two valid casts and a NUL link} → ${bulkReply.status} ${short(bulkReply.text, 300)}: the valid casts were not merged`,
        );
      } else {
        const outcomes = (JSON.parse(bulkReply.text) as { messages: Record<string, unknown>[] }).messages;
        for (const i of [0, 2]) {
          if (outcomes[i]?.errCode !== undefined)
            problems.push(
              `hub: bulk of two valid casts and a NUL link → 200, but valid cast #${i} failed: ${JSON.stringify(outcomes[i])}`,
            );
        }
      }
      problems.push(...errorLogs.splice(0).map((l) => `error logged: ${l}`));
      problems.push(...(await healthProblems()));
      await watch.changes();
      report(problems);
    });

    it("keeps serving after the sweep, with no crash and no error logged", async (t) => {
      t.diagnostic(`${requestsSent} requests sent so far`);
      report(await healthProblems());
    });
  });
}
