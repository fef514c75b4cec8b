// Regenerates src/protocol/generated/*.ts from src/protocol/proto/*.proto with buf and the locally
// installed ts-proto plugin (no remote plugins). buf is fetched on demand by npx rather than kept as a
// dev dependency: its per-platform binaries would otherwise be needed in package-lock.json, and only
// maintainers who change a .proto file ever run this.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

const protoDir = "src/protocol/proto";
const outDir = "src/protocol/generated";

const options = [
  "esModuleInterop=true",
  "forceLong=number",
  "importSuffix=.js",
  "outputServices=grpc-js",
  // The hub renders JSON itself (docs/reference/hub-http-api.md §5), so ts-proto's JSON helpers are dead weight; create/fromPartial stay for building messages in code.
  "outputJsonMethods=false",
  "outputPartialMethods=true",
  "outputTypeRegistry=false",
  "removeEnumPrefix=true",
  "unrecognizedEnum=false",
  "oneof=properties",
  "useExactTypes=false",
];

const template = {
  version: "v2",
  plugins: [{ local: join("node_modules", ".bin", "protoc-gen-ts_proto"), out: outDir, opt: options }],
};

rmSync(outDir, { recursive: true, force: true });
const BUF = "@bufbuild/buf@1.75.0";
const result = spawnSync(
  "npx",
  ["--yes", BUF, "generate", protoDir, "--template", JSON.stringify(template)],
  {
    stdio: "inherit",
  },
);
if (result.status !== 0) process.exit(result.status ?? 1);

// Generated files carry the generator version and the proto path; strip the version so that
// regenerating with a patch release of a tool does not churn every file.
for (const name of readdirSync(outDir)) {
  const path = join(outDir, name);
  const text = readFileSync(path, "utf8").replace(/^\/\/ +(protoc-gen-ts_proto|protoc) +v.*\n/gm, "");
  writeFileSync(path, text);
}
