/**
 * The `castnet start` flag that puts every listener of a stack, the hub's gRPC port included, on a
 * free port: tests run side by side, and beside a castnet on the default ports (scripts/test.mjs
 * holds those ports while the tests run, so that a test that binds one fails).
 */
export const FREE_PORTS = ["--ports", "auto"] as const;
