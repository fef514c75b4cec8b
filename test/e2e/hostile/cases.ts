/**
 * The requests the sweep sends a route: its baseline, then one hostile value at a time in its query,
 * path and body, other methods, and bodies where it takes none; the hub's protobuf routes get theirs
 * from protoCases.ts, the devchain's JSON-RPC from rpcCases.ts.
 */
import type { Req } from "./client.js";
import { RANDOM } from "./generator.js";
import { short, type Case } from "./judge.js";
import type { Expect } from "./parts.js";
import { protoCases } from "./protoCases.js";
import { rpcCases } from "./rpcCases.js";
import type { Fixtures, Route } from "./routes.js";
import { hostileFields, hostileParams, jsonBytes, toJson } from "./values.js";

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
    if (param.maxItems === undefined) {
      add(`${name} twice`, withQuery(path, [...others, [name, value], [name, value]]), "refuse");
    } else {
      const many = Array.from({ length: param.maxItems + 1 }, () => [name, value] as const);
      add(`${name} past its ${param.maxItems} values`, withQuery(path, [...others, ...many]), "refuse");
    }
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

/** Every request the sweep sends `route` (one of `all`, the whole list, which says what methods a path has). */
export async function routeCases(route: Route, all: readonly Route[], fx: Fixtures): Promise<Case[]> {
  const cases: Case[] = [];
  if (route.proto) cases.push(...(await protoCases(route, fx)));
  else if (route.rpc) cases.push(...rpcCases(route), ...methodCases(route, all));
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
  return (route.stream ? cases.filter((c) => c.expect === "refuse") : cases).map((c) =>
    route.text ? { ...c, text: true } : c,
  );
}

/** Requests no route answers (unknown paths, odd methods, oversized lines), for every part. */
export function unknownRouteCases(): Case[] {
  return [
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
}

/** Bytes no HTTP client would send, each on a new connection: the server must answer 400 or close. */
export const MALFORMED_HTTP: readonly (readonly [label: string, raw: string])[] = [
  ["a request line that is not HTTP", "FOO /_health HTTP/1.1\r\nHost: x\r\n\r\n"],
  ["TLS bytes on a plain port", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n"],
  ["a negative content-length", "POST /_health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"],
  [
    "a broken chunked body",
    "POST /_health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
  ],
];
