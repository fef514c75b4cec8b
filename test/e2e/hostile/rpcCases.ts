/**
 * The requests the sweep sends the devchain's JSON-RPC route: bodies that are not JSON, requests that
 * are not request objects, hostile envelopes, batches and content types. JSON-RPC refuses inside a
 * 200 answer, so each case says which error code (or which codes, for a batch) the answer must carry;
 * only a body over the limit is an HTTP refusal (413, in JSON-RPC's shape). The requests name a method
 * no node serves, so that the expected codes hold whatever methods the devchain gains.
 */
import { rpcAnswerProblem, short, type Case } from "./judge.js";
import type { Route } from "./routes.js";

const METHOD = "hostile_noSuchMethod";
const PARSE = -32700;
const INVALID = -32600;
const NOT_FOUND = -32601;
const J = "application/json";

const request = (fields: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 1, ...fields });
const VALID = request({ method: METHOD, params: [] });

export function rpcCases(route: Route): Case[] {
  const cases: Case[] = [];
  const add = (
    label: string,
    body: string | Uint8Array | undefined,
    expected: number | readonly number[] | null,
    contentType: string | null = J,
  ) =>
    cases.push({
      label,
      req: { method: route.method, path: route.path, body, contentType: contentType ?? undefined },
      expect: "either",
      accepted: (answer) => rpcAnswerProblem(answer, expected),
    });

  for (const text of [
    "{",
    '{"jsonrpc":"2.0",',
    "{'jsonrpc':'2.0'}",
    '{"id":1,}',
    "[1,2",
    "NaN",
    "undefined",
    '{"a":1}{"b":2}',
    "\u0000",
    `\ufeff${VALID}`,
    `${VALID}garbage`,
    VALID.slice(0, 20),
    "[".repeat(20_000),
  ])
    add(`malformed JSON ${short(text, 30)}`, text, PARSE);
  add("an empty body", "", PARSE);
  add("no body and no content type", undefined, PARSE, null);
  add("JSON sent as UTF-16", Buffer.from(VALID, "utf16le"), PARSE, "application/json; charset=utf-16");

  for (const text of ["1", '"eth_chainId"', "null", "true", "-0", "1e400", "{}"])
    add(`JSON ${text}, not a request`, text, INVALID);

  for (const [label, fields] of [
    ["no jsonrpc", { jsonrpc: undefined, method: METHOD }],
    ['jsonrpc "1.0"', { jsonrpc: "1.0", method: METHOD }],
    ["jsonrpc 2", { jsonrpc: 2, method: METHOD }],
    ['jsonrpc "2.0 "', { jsonrpc: "2.0 ", method: METHOD }],
    ["no method", {}],
    ["method 1", { method: 1 }],
    ["method null", { method: null }],
    ["method []", { method: [METHOD] }],
    ["method {}", { method: {} }],
    ["id {}", { id: {}, method: METHOD }],
    ["id []", { id: [1], method: METHOD }],
    ["id true", { id: true, method: METHOD }],
    ['params "0x1"', { method: METHOD, params: "0x1" }],
    ["params 1", { method: METHOD, params: 1 }],
    ["params true", { method: METHOD, params: true }],
  ] as const)
    add(label, request(fields), INVALID);

  for (const [label, method] of [
    ["the empty method", ""],
    ["constructor", "constructor"],
    ["__proto__", "__proto__"],
    ["toString", "toString"],
    ["a method of 5000 characters", "a".repeat(5000)],
    ["a method with NUL", "eth_call\u0000"],
    ["an upper-case method", "ETH_CHAINID"],
  ] as const)
    add(label, request({ method }), NOT_FOUND);
  add("params an object", request({ method: METHOD, params: { a: 1 } }), NOT_FOUND);
  add("params null", request({ method: METHOD, params: null }), NOT_FOUND);
  add(
    "params deeply nested",
    request({ method: METHOD }).replace("}", `,"params":${"[".repeat(20_000)}${"]".repeat(20_000)}}`),
    NOT_FOUND,
  );
  for (const [label, id] of [
    ["a string id", "x".repeat(1000)],
    ["a negative id", -1],
    ["a fractional id", 1.5],
    ["a null id", null],
  ] as const)
    add(label, request({ id, method: METHOD }), NOT_FOUND);
  add("an id of 1e400", VALID.replace('"id":1', '"id":1e400'), NOT_FOUND);
  add("method twice", VALID.replace("{", '{"method":"eth_chainId",'), NOT_FOUND);
  add("__proto__", VALID.replace("{", '{"__proto__":{"polluted":1},'), NOT_FOUND);
  add("constructor.prototype", VALID.replace("{", '{"constructor":{"prototype":{"polluted":1}},'), NOT_FOUND);

  add("a notification", JSON.stringify({ jsonrpc: "2.0", method: METHOD }), null);
  add(
    "a batch of notifications",
    JSON.stringify([
      { jsonrpc: "2.0", method: METHOD },
      { jsonrpc: "2.0", method: "" },
    ]),
    null,
  );
  add("a notification beside a request", `[${JSON.stringify({ jsonrpc: "2.0", method: METHOD })},${VALID}]`, [
    NOT_FOUND,
  ]);
  add("an empty batch", "[]", INVALID);
  add("a batch of a number", "[1]", [INVALID]);
  add("a batch of an empty batch", "[[]]", [INVALID]);
  add("a batch of junk", `[null,{},"x",${VALID}]`, [INVALID, INVALID, INVALID, NOT_FOUND]);
  add("a batch nested 20,000 deep", `[${"[".repeat(20_000)}${"]".repeat(20_000)}]`, [INVALID]);
  add("a batch of 100", `[${Array(100).fill(VALID).join(",")}]`, Array(100).fill(NOT_FOUND));
  add("a batch of 101", `[${Array(101).fill(VALID).join(",")}]`, INVALID);
  add("a batch of 10,000 nulls", `[${Array(10_000).fill("null").join(",")}]`, INVALID);

  for (const type of [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "application/jsonx",
    ";;;",
    "APPLICATION/JSON",
  ])
    add(`content type ${type}`, VALID, NOT_FOUND, type);
  add("no content type", VALID, NOT_FOUND, null);

  const limit = route.bodyLimit!;
  cases.push({
    label: `over the ${limit}-byte body limit`,
    req: {
      method: route.method,
      path: route.path,
      body: request({ method: METHOD, params: ["x".repeat(limit)] }),
      contentType: J,
    },
    expect: "refuse",
    shapes: ["jsonrpc"],
  });
  return cases;
}
