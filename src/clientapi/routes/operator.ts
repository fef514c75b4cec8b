import type { FastifySchema } from "fastify";
import { operatorGuard } from "../../http/index.js";
import { clientApiErrors } from "../errors.js";
import * as s from "./schemas.js";

/**
 * The options of every operator write under /v1/admin (docs/clientapi.md): the guard runs before the
 * body is even parsed, so a caller without the right to write learns nothing about its input; and no
 * operator route takes query parameters, so any sent are a mistake worth a 400. The schema keeps its
 * literal type, from which the route's request types are made.
 */
export function operatorRoute(adminToken: string | undefined) {
  const onRequest = operatorGuard(adminToken, clientApiErrors);
  return <const S extends FastifySchema>(schema: S) => ({
    onRequest,
    schema: { querystring: s.object({}), ...schema },
  });
}

/** Path parameters, all required. */
export const params = <const P extends Record<string, object>>(properties: P) =>
  s.object(properties, Object.keys(properties) as (keyof P & string)[]);
