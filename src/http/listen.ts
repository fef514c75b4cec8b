import type { FastifyInstance } from "fastify";

/** A startup failure that deserves one clear line, not a stack trace. */
export class StartupError extends Error {
  override name = "StartupError";
}

/** Listens and returns the base URL; a port in use or a bad host becomes a StartupError. */
export async function listen(
  app: FastifyInstance,
  part: string,
  host: string,
  port: number,
): Promise<string> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new StartupError(`${part}: port ${port} on ${host} is already in use`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
      throw new StartupError(`${part}: cannot listen on host ${host}`);
    if (code === "EACCES") throw new StartupError(`${part}: no permission to listen on port ${port}`);
    throw error;
  }
  const address = app.server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return `http://${urlHost}:${actualPort}`;
}
