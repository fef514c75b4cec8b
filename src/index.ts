/** The castnet package: the stack started in-process (docs/sdk.md). */
export {
  type AccountDetails,
  type Castnet,
  type CastnetClients,
  type PartName,
  type StartCastnetOptions,
  startCastnet,
} from "./library.js";
