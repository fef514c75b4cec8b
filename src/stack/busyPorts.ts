/**
 * A start's ports, tried before anything else is done: a port another process holds is refused with
 * the option that moves it, before migrations touch the databases. (listen() still words a port
 * taken in between.)
 */
import { createServer } from "node:net";
import { StartupError } from "../http/index.js";
import type { StackConfig } from "./options.js";

/** Whether nothing holds `port` on `host`; an error other than "in use" is left for listen() to word. */
function free(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code !== "EADDRINUSE"));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Refuses a start when a port it is to listen on is in use, naming the option of each such port. */
export async function refuseBusyPorts(config: StackConfig): Promise<void> {
  const listeners = config.only.map((part) => ({ port: config.ports[part], option: `--${part}-port` }));
  if (config.only.includes("hub")) listeners.push({ port: config.hubGrpcPort, option: "--hub-grpc-port" });
  const busy: typeof listeners = [];
  for (const listener of listeners)
    if (listener.port !== 0 && !(await free(config.host, listener.port))) busy.push(listener);
  if (busy.length === 0) return;
  const ports = busy.map((b) => b.port).join(", ");
  const options = busy.map((b) => b.option).join(", ");
  throw new StartupError(
    `${busy.length === 1 ? `port ${ports} is` : `ports ${ports} are`} already in use on ${config.host}: ` +
      `move ${busy.length === 1 ? "it" : "them"} with ${options}, or every port with --port-base N or --ports auto`,
  );
}
