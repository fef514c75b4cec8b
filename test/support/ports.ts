/**
 * `castnet start` flags that put every listener of a stack, the hub's gRPC port included, on a free
 * port: tests run side by side, and a fixed default port would make them contend.
 */
export const FREE_PORTS = [
  "--registry-port",
  "0",
  "--hub-port",
  "0",
  "--hub-grpc-port",
  "0",
  "--api-port",
  "0",
  "--chain-port",
  "0",
] as const;
