import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { databaseFor, parseStartOptions } from "../../src/stack/options.js";
import { UsageError } from "../../src/usageError.js";

describe("castnet start options", () => {
  it("defaults to the whole stack on the documented ports with SQLite in the data directory", () => {
    const config = parseStartOptions([], {});
    assert.deepEqual(config.ports, { registry: 2280, hub: 2281, api: 2282, chain: 2284 });
    assert.equal(config.hubGrpcPort, 2283);
    assert.deepEqual(config.only, ["registry", "hub", "api", "chain"]);
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.naming, "neutral");
    assert.equal(config.network, "mainnet");
    assert.equal(config.blockTimeSeconds, 2);
    assert.equal(config.devBalance, 100n * 10n ** 18n);
    assert.equal(config.adminToken, undefined);
    assert.equal(config.deeplink, "page");
    assert.deepEqual(databaseFor(config, "hub"), {
      engine: "sqlite",
      path: join(config.dataDir, "hub.sqlite"),
    });
  });

  it("reads every option from the command line, over the environment", () => {
    const config = parseStartOptions(
      [
        "--hub-port",
        "3000",
        "--naming",
        "reference",
        "--network",
        "devnet",
        "--block-time",
        "0",
        "--admin-token",
        "s3cret",
      ],
      {
        CASTNET_HUB_PORT: "4000",
        CASTNET_API_PORT: "4001",
        CASTNET_LOG_LEVEL: "warn",
        CASTNET_DEEPLINK: "scheme",
      },
    );
    assert.equal(config.deeplink, "scheme");
    assert.equal(config.ports.hub, 3000);
    assert.equal(config.ports.api, 4001);
    assert.equal(config.naming, "reference");
    assert.equal(config.network, "devnet");
    assert.equal(config.blockTimeSeconds, 0);
    assert.equal(config.adminToken, "s3cret");
    assert.equal(config.logLevel, "warn");
  });

  it("places the five listeners from --port-base N, or on free ports with --ports auto; a port option wins", () => {
    const ports = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const config = parseStartOptions(args, env);
      return { ...config.ports, hubGrpc: config.hubGrpcPort };
    };
    assert.deepEqual(ports(["--port-base", "3280"]), {
      registry: 3280,
      hub: 3281,
      api: 3282,
      hubGrpc: 3283,
      chain: 3284,
    });
    assert.deepEqual(ports([], { CASTNET_PORT_BASE: "4000", CASTNET_HUB_GRPC_PORT: "5000" }), {
      registry: 4000,
      hub: 4001,
      api: 4002,
      hubGrpc: 5000,
      chain: 4004,
    });
    assert.deepEqual(ports(["--ports", "auto", "--api-port", "3002"]), {
      registry: 0,
      hub: 0,
      api: 3002,
      hubGrpc: 0,
      chain: 0,
    });
    for (const [args, message] of [
      [["--port-base", "65532"], '--port-base must be a port number from 1 to 65531, got "65532"'],
      [["--port-base", "0"], '--port-base must be a port number from 1 to 65531, got "0"'],
      [["--ports", "free"], '--ports must be one of auto, got "free"'],
      [["--ports", "auto", "--port-base", "3000"], "give either --port-base or --ports auto, not both"],
    ] as const)
      assert.throws(() => parseStartOptions([...args], {}), new UsageError(message));
  });

  it("puts every part in one PostgreSQL database when DATABASE_URL is set", () => {
    const config = parseStartOptions([], { DATABASE_URL: "postgres://u@db/castnet" });
    assert.deepEqual(databaseFor(config, "registry"), { engine: "postgres", url: "postgres://u@db/castnet" });
  });

  it("requires the URLs of the parts a subset talks to", () => {
    assert.throws(
      () => parseStartOptions(["--only", "hub"], {}),
      (e: unknown) => e instanceof UsageError && /give --chain-url/.test(e.message),
    );
  });

  it("runs a subset, reaching the other parts at the URLs given", () => {
    const config = parseStartOptions(
      ["--only", "hub", "--chain-url", "http://10.0.0.2:2283/", "--registry-url", "http://10.0.0.3:2280"],
      {},
    );
    assert.deepEqual(config.only, ["hub"]);
    assert.equal(config.urls.chain, "http://10.0.0.2:2283");
  });

  it("reads --dev-balance in ether, as wei", () => {
    assert.equal(parseStartOptions(["--dev-balance", "0.5"], {}).devBalance, 5n * 10n ** 17n);
    assert.equal(parseStartOptions([], { CASTNET_DEV_BALANCE: "0" }).devBalance, 0n);
    assert.equal(
      parseStartOptions(["--dev-balance", "1.000000000000000001"], {}).devBalance,
      10n ** 18n + 1n,
    );
  });

  it("reads --only devchain as the chain part", () => {
    assert.deepEqual(parseStartOptions(["--only", "devchain"], {}).only, ["chain"]);
  });

  for (const [args, message] of [
    [["--bogus"], /unknown option '--bogus'/],
    [["--hub-port", "http"], /--hub-port must be a port number/],
    [["--hub-port", "70000"], /--hub-port must be a port number/],
    [["--naming", "brand"], /--naming must be one of neutral, reference/],
    [["--network", "moon"], /--network must be one of mainnet, testnet, devnet/],
    [["--block-time=-1"], /--block-time must be a number of seconds/],
    [["--block-time", "-1"], /write --block-time=<value> when the value starts with "-"/],
    [["--only", "hub,wallet"], /--only must be one of registry, hub, api, chain/],
    [["--chain-url", "ftp://x"], /--chain-url must be an http\(s\) URL/],
    [["--rpc-auth", "nopassword"], /--rpc-auth must be user:password/],
    [["--seed", "prod"], /--seed must be one of demo/],
    [
      ["--seed", "demo", "--only", "chain"],
      /--seed demo fills all four parts: start them together \(no --only\)/,
    ],
    [["--deeplink", "qr"], /--deeplink must be one of page, scheme/],
    [
      ["--dev-balance", "lots"],
      /--dev-balance must be an amount of ether from 0 to 1000000000 with at most 18 decimals/,
    ],
    [["--dev-balance", "1.0000000000000000001"], /--dev-balance must be an amount of ether/],
    [["--dev-balance", "1000000001"], /--dev-balance must be an amount of ether/],
  ] as const) {
    it(`refuses ${args.join(" ")} with one clear sentence`, () => {
      assert.throws(
        () => parseStartOptions(args, {}),
        (e: unknown) => e instanceof UsageError && message.test(e.message) && !e.message.includes("\n"),
      );
    });
  }
});
