/**
 * The devchain's JSON-RPC transport (src/devchain/rpc/server.ts) over real HTTP, with a tiny table of
 * test methods: exact answers for requests, batches, notifications and every refusal, CORS, the Host
 * rule, and viem's client reading it. The transport does not touch storage: SQLite alone.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import pino from "pino";
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  encodeErrorResult,
  http,
  parseAbi,
  RpcRequestError,
} from "viem";
import { type Devchain, createDevchain } from "../../src/devchain/index.js";
import {
  encodeQuantity,
  parseAddress,
  parseBlockSelector,
  parseQuantity,
  positionalParams,
  RpcError,
  type RpcMethods,
} from "../../src/devchain/rpc/index.js";
import { listen } from "../../src/http/index.js";

const abi = parseAbi(["function idOf(address owner) view returns (uint256)", "error Unauthorized()"]);
const REVERT_DATA = encodeErrorResult({ abi, errorName: "Unauthorized" });
const SECRET = "a secret only the log may hold";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

describe("the devchain's JSON-RPC transport", () => {
  let dir: string;
  let devchain: Devchain;
  let url: string;
  const logLines: Record<string, unknown>[] = [];
  const notified: unknown[] = [];

  const methods: RpcMethods = {
    test_echo: async (params) => params,
    test_notify: async (params) => {
      notified.push(...params);
      return null;
    },
    test_revert: async () => {
      throw RpcError.executionReverted(REVERT_DATA);
    },
    test_crash: async () => {
      throw new Error(SECRET);
    },
    test_bigint: async () => 10n,
    test_nothing: async () => undefined,
    test_balance: async (params, context) => {
      const [address, block] = positionalParams(params, ["address", "block"], 1);
      const where = block === undefined ? { kind: "tag", tag: "latest" } : parseBlockSelector(block, "block");
      return { address: parseAddress(address, "address"), where, client: context.clientAddress };
    },
    test_double: async (params) => {
      const [value] = positionalParams(params, ["value"]);
      return encodeQuantity(parseQuantity(value, "value") * 2n);
    },
    // viem's readContract sends eth_call: here every call reverts with the ABI's custom error.
    eth_call: async () => {
      throw RpcError.executionReverted(REVERT_DATA);
    },
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-jsonrpc-"));
    const logger = pino(
      { level: "error" },
      { write: (line: string) => void logLines.push(JSON.parse(line)) },
    );
    devchain = await createDevchain({
      database: { engine: "sqlite", path: join(dir, "devchain.sqlite") },
      logger,
      blockTimeSeconds: 0,
      rpcMethods: methods,
    });
    url = await listen(devchain.app, "devchain", "127.0.0.1", 0);
  });
  after(async () => {
    await devchain?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One HTTP exchange with any headers (fetch will not send a Host of its own choosing). */
  function send(
    method: string,
    body: string | undefined,
    headers: Record<string, string> = { "content-type": "application/json" },
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url}/`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Posts `body` and expects a 200 with exactly `expected` as its JSON. */
  async function answers(body: string, expected: unknown, headers?: Record<string, string>) {
    const answer = await send("POST", body, headers);
    assert.equal(answer.status, 200, answer.text);
    assert.match(String(answer.headers["content-type"]), /^application\/json/);
    assert.equal(answer.text, JSON.stringify(expected));
  }

  const call = (id: unknown, method: string, params?: unknown[]) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  const error = (id: unknown, code: number, message: string, data?: unknown) => ({
    jsonrpc: "2.0",
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  });

  it("answers a request with its result and its id", async () => {
    await answers(call(1, "test_echo", ["0x1", { a: [true, null] }]), {
      jsonrpc: "2.0",
      id: 1,
      result: ["0x1", { a: [true, null] }],
    });
    await answers(call("req-7", "test_echo", []), { jsonrpc: "2.0", id: "req-7", result: [] });
    await answers(call(null, "test_echo"), { jsonrpc: "2.0", id: null, result: [] });
    await answers(call(2, "test_nothing"), { jsonrpc: "2.0", id: 2, result: null });
    await answers(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "test_echo", params: null }), {
      jsonrpc: "2.0",
      id: 3,
      result: [],
    });
  });

  it("reads the body whatever its content type, or without one", async () => {
    const expected = { jsonrpc: "2.0", id: 3, result: [] };
    for (const type of [
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      ";;;",
    ])
      await answers(call(3, "test_echo"), expected, { "content-type": type });
    await answers(call(3, "test_echo"), expected, {});
  });

  it("answers a batch in order, executing notifications without answering them", async () => {
    notified.length = 0;
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "test_echo", params: ["a"] },
      { jsonrpc: "2.0", method: "test_notify", params: ["first"] },
      { jsonrpc: "2.0", id: "two", method: "test_revert" },
      { jsonrpc: "2.0", method: "no_such_method" },
      42,
      { jsonrpc: "2.0", id: 3, method: "no_such_method" },
      { jsonrpc: "2.0", method: "test_notify", params: ["second"] },
    ];
    await answers(JSON.stringify(batch), [
      { jsonrpc: "2.0", id: 1, result: ["a"] },
      error("two", 3, "execution reverted", REVERT_DATA),
      error(null, -32600, "invalid request: a request must be a JSON object"),
      error(3, -32601, "the method no_such_method does not exist/is not available"),
    ]);
    assert.deepEqual(notified, ["first", "second"]);
  });

  it("answers nothing (204) to notifications alone, and executes them", async () => {
    notified.length = 0;
    const alone = await send("POST", JSON.stringify({ jsonrpc: "2.0", method: "test_notify", params: [1] }));
    assert.equal(alone.status, 204);
    assert.equal(alone.text, "");
    const batch = await send(
      "POST",
      JSON.stringify([
        { jsonrpc: "2.0", method: "test_notify", params: [2] },
        { jsonrpc: "2.0", method: "test_crash" },
        { jsonrpc: "2.0", method: "no_such_method" },
      ]),
    );
    assert.equal(batch.status, 204);
    assert.equal(batch.text, "");
    assert.deepEqual(notified, [1, 2]);
  });

  it("refuses a body that is not JSON with -32700 and id null", async () => {
    const parseError = error(null, -32700, "parse error: the request body is not valid JSON");
    for (const body of [
      "{",
      '{"jsonrpc":"2.0","id":1,',
      "[1,2",
      "NaN",
      "\ufeff{}",
      `${call(1, "test_echo")}x`,
    ])
      await answers(body, parseError);
    await answers("", error(null, -32700, "parse error: the request body is empty"));
    await answers("  \n", error(null, -32700, "parse error: the request body is empty"), {});
  });

  it("refuses what is not a request object with -32600", async () => {
    const notObject = "invalid request: a request must be a JSON object";
    for (const body of ["1", '"eth_chainId"', "null", "true", "[[]]"]) {
      const expected = error(null, -32600, notObject);
      await answers(body, body.startsWith("[") ? [expected] : expected);
    }
    await answers(
      JSON.stringify({ jsonrpc: "1.0", id: 4, method: "test_echo" }),
      error(4, -32600, 'invalid request: "jsonrpc" must be "2.0"'),
    );
    await answers(
      JSON.stringify({ id: 5, method: "test_echo" }),
      error(5, -32600, 'invalid request: "jsonrpc" must be "2.0"'),
    );
    await answers(
      JSON.stringify({ jsonrpc: "2.0", id: 6 }),
      error(6, -32600, 'invalid request: "method" must be a string'),
    );
    await answers(
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: ["test_echo"] }),
      error(7, -32600, 'invalid request: "method" must be a string'),
    );
    await answers(
      JSON.stringify({ jsonrpc: "2.0", id: { n: 1 }, method: "test_echo" }),
      error(null, -32600, 'invalid request: "id" must be a string, a number or null'),
    );
    await answers(
      JSON.stringify({ jsonrpc: "2.0", id: 8, method: "test_echo", params: "0x1" }),
      error(8, -32600, 'invalid request: "params" must be an array or an object'),
    );
    // Malformed requests are answered even without an id: they are not notifications.
    await answers(
      JSON.stringify({ jsonrpc: "2.0", method: 9 }),
      error(null, -32600, 'invalid request: "method" must be a string'),
    );
  });

  it("answers -32601 naming an unknown method, inherited names included", async () => {
    await answers(
      call(1, "eth_fillTransaction", [{}]),
      error(1, -32601, "the method eth_fillTransaction does not exist/is not available"),
    );
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      await answers(call(1, name), error(1, -32601, `the method ${name} does not exist/is not available`));
  });

  it("answers -32602 naming the parameter that is wrong", async () => {
    const address = "0x8ba1f109551bd432803012645ac136ddd64dba72";
    await answers(call(1, "test_balance", [address, "pending"]), {
      jsonrpc: "2.0",
      id: 1,
      result: {
        address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
        where: { kind: "tag", tag: "pending" },
        client: "127.0.0.1",
      },
    });
    await answers(
      call(1, "test_balance", ["0x1234", "latest"]),
      error(1, -32602, 'invalid params: address must be a 20-byte hex address, got "0x1234"'),
    );
    await answers(
      call(1, "test_balance", [address, "0x01"]),
      error(
        1,
        -32602,
        'invalid params: block must be a block tag (latest, earliest, pending, safe, finalized) or a hex block number, got "0x01"',
      ),
    );
    await answers(
      call(1, "test_balance", []),
      error(1, -32602, "invalid params: missing parameter 0 (address): this method needs 1 (address)"),
    );
    await answers(
      call(1, "test_balance", [address, "latest", true]),
      error(
        1,
        -32602,
        "invalid params: too many parameters: this method takes at most 2 (address, block), got 3",
      ),
    );
    await answers(
      call(1, "test_double", [26]),
      error(
        1,
        -32602,
        "invalid params: value must be a hex quantity like 0x1a (0x0 for zero, no leading zeros), got 26",
      ),
    );
    await answers(call(1, "test_double", ["0x1a"]), { jsonrpc: "2.0", id: 1, result: "0x34" });
    await answers(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "test_echo", params: { value: 1 } }),
      error(
        2,
        -32602,
        "invalid params: params must be an array: these methods take their parameters by position",
      ),
    );
  });

  it("bounds a batch at 100 requests and refuses an empty one", async () => {
    const requests = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, id) => ({ jsonrpc: "2.0", id, method: "test_echo" })));
    await answers(
      requests(101),
      error(null, -32600, "invalid request: a batch holds at most 100 requests; this one holds 101"),
    );
    const full = await send("POST", requests(100));
    assert.equal(full.status, 200);
    assert.equal((JSON.parse(full.text) as unknown[]).length, 100);
    await answers("[]", error(null, -32600, "invalid request: the batch is empty"));
  });

  it("refuses a body over the server's limit with 413, saying the limit", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "test_echo", params: ["x".repeat(70_000)] });
    const answer = await send("POST", body);
    assert.equal(answer.status, 413);
    assert.equal(
      answer.text,
      JSON.stringify(
        error(null, -32600, "invalid request: the request body is over the limit of 65536 bytes"),
      ),
    );
    assert.equal(answer.headers["access-control-allow-origin"], "*");
  });

  it("answers a revert with code 3 and its data", async () => {
    await answers(call(1, "test_revert"), error(1, 3, "execution reverted", REVERT_DATA));
  });

  it("answers -32603 for a method's fault, with the details in the log only", async () => {
    logLines.length = 0;
    const internal = "internal error: the server failed to handle this request";
    await answers(call(1, "test_crash"), error(1, -32603, internal));
    await answers(call(2, "test_bigint"), error(2, -32603, internal));
    const logged = logLines.map((line) => ({
      msg: line.msg,
      method: line.method,
      err: (line.err as { message: string }).message,
    }));
    assert.deepEqual(logged, [
      { msg: "JSON-RPC method failed", method: "test_crash", err: SECRET },
      {
        msg: "JSON-RPC answer could not be serialized",
        method: "test_bigint",
        err: "Do not know how to serialize a BigInt",
      },
    ]);
  });

  it("is open to web pages: a CORS preflight, and answers any origin may read", async () => {
    const preflight = await send("OPTIONS", undefined, {
      origin: "https://wallet.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], "*");
    assert.match(String(preflight.headers["access-control-allow-methods"]), /\bPOST\b/);
    assert.equal(preflight.headers["access-control-allow-headers"], "content-type");
    const answer = await send("POST", call(1, "test_echo"), {
      "content-type": "application/json",
      origin: "https://wallet.example",
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers["access-control-allow-origin"], "*");
    assert.equal(answer.text, JSON.stringify({ jsonrpc: "2.0", id: 1, result: [] }));
  });

  it("keeps the Host rule: a name the devchain does not serve is refused", async () => {
    const refused = await send("POST", call(1, "test_echo"), {
      "content-type": "application/json",
      host: "evil.example",
      origin: "http://evil.example",
    });
    assert.equal(refused.status, 421);
    assert.deepEqual(JSON.parse(refused.text), {
      error: "bad_request",
      message:
        "this server does not answer to the host name evil.example; if it is one of the server's names, list it in --allowed-hosts (CASTNET_ALLOWED_HOSTS)",
    });
    await answers(call(1, "test_echo"), { jsonrpc: "2.0", id: 1, result: [] }, { host: "localhost:8545" });
  });

  it("leaves GET / and the other methods on / as they were: not found", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const answer = await send(method, undefined, {});
      assert.equal(answer.status, 404);
      assert.deepEqual(JSON.parse(answer.text), {
        error: "not_found",
        message: `there is no route ${method} /`,
      });
    }
  });

  it("serves viem's public client: results, batches, and reverts with their data", async () => {
    const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
    assert.deepEqual(await client.request({ method: "test_echo" as never, params: ["0x1", 2] as never }), [
      "0x1",
      2,
    ]);

    const batching = createPublicClient({ transport: http(url, { batch: true, retryCount: 0 }) });
    const echoes = await Promise.all(
      ["a", "b", "c"].map((value) =>
        batching.request({ method: "test_echo" as never, params: [value] as never }),
      ),
    );
    assert.deepEqual(echoes, [["a"], ["b"], ["c"]]);

    await assert.rejects(client.request({ method: "test_revert" as never }), (thrown: unknown) => {
      assert.ok(thrown instanceof BaseError);
      const cause = thrown.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
      assert.ok(cause, String(thrown));
      assert.equal(cause.code, 3);
      assert.equal(cause.data, REVERT_DATA);
      return true;
    });

    // Through eth_call, viem decodes the revert's data against the ABI.
    await assert.rejects(
      client.readContract({
        address: "0x00000000fc6c5f01fc30151999387bb99a9f489b",
        abi,
        functionName: "idOf",
        args: ["0x8ba1f109551bD432803012645Ac136ddd64DBA72"],
      }),
      (thrown: unknown) => {
        assert.ok(thrown instanceof BaseError);
        const reverted = thrown.walk((e) => e instanceof ContractFunctionRevertedError);
        assert.ok(reverted instanceof ContractFunctionRevertedError, String(thrown));
        assert.equal(reverted.data?.errorName, "Unauthorized");
        return true;
      },
    );

    await assert.rejects(
      client.request({ method: "eth_fillTransaction" as never, params: [{}] as never }),
      (thrown: unknown) => (thrown as { code?: number }).code === -32601,
    );
  });
});
