/** The stack's parts as the sweep names them, and what it expects of an answer. */

export type Part = "registry" | "hub" | "api" | "chain";
/** The error shapes: each part's, the CCIP gateway's own inside the registry, and the devchain's JSON-RPC. */
export type Shape = "registry" | "ccip" | "hub" | "api" | "chain" | "jsonrpc";
/** "refuse": the input must get a 4xx; "either": a 2xx or a 4xx, as the input may in fact be acceptable. */
export type Expect = "refuse" | "either";
export const PARTS: readonly Part[] = ["registry", "hub", "api", "chain"];
