/**
 * castnet's layers (docs/architecture.md, "Layers"), checked by `npm run lint`. From the bottom:
 * protocol, storage, http and part (what every part shares: the skeleton a part is built on); the SDK (src/sdk) and the interfaces the
 * parts use of each other (src/interfaces); the four parts; the wallet (keystore, wallet-side
 * signing); the explorer (pages over the parts' public APIs); the stack (composes the parts); the
 * CLI. A module imports only from its own layer and the ones below it.
 */
const PARTS = "(devchain|registry|hub|clientapi)";
const ABOVE_PARTS = "(explorer|wallet|stack|cli)";

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "Modules import each other one way, type-only imports included.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "nothing-imports-the-cli",
      severity: "error",
      comment:
        "The CLI is the top layer: the stack, the library entry and the pages use src/stack, never src/cli.",
      from: { path: "^src/", pathNot: "^src/cli/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "shared-layers-import-no-part",
      severity: "error",
      comment: "protocol, storage, http and the part skeleton are below every part.",
      from: { path: "^src/(protocol|storage|http|part)/" },
      to: { path: `^src/(${PARTS.slice(1, -1)}|interfaces|sdk|${ABOVE_PARTS.slice(1, -1)})/` },
    },
    {
      name: "sdk-and-interfaces-import-no-part",
      severity: "error",
      comment: "The SDK and the interfaces between parts rest on the shared layers only.",
      from: { path: "^src/(sdk|interfaces)/" },
      to: { path: `^src/(${PARTS.slice(1, -1)}|${ABOVE_PARTS.slice(1, -1)})/` },
    },
    {
      name: "a-part-imports-no-other-part",
      severity: "error",
      comment:
        "Parts talk through src/interfaces (in-process and HTTP twins), never to each other's modules.",
      from: { path: `^src/${PARTS}/` },
      to: { path: `^src/${PARTS}/`, pathNot: "^src/$1/" },
    },
    {
      name: "parts-import-nothing-above",
      severity: "error",
      from: { path: `^src/${PARTS}/` },
      to: { path: `^src/${ABOVE_PARTS}/` },
    },
    {
      name: "wallet-and-explorer-use-public-apis",
      severity: "error",
      comment:
        "The wallet and the explorer reach the parts through their public HTTP APIs (and the explorer's host).",
      from: { path: "^src/(wallet|explorer)/" },
      to: { path: `^src/(${PARTS.slice(1, -1)}|stack)/` },
    },
    {
      name: "wallet-below-explorer",
      severity: "error",
      from: { path: "^src/wallet/" },
      to: { path: "^src/explorer/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^src/(protocol|sdk)/generated/" },
  },
};
