/**
 * The type provider every route plugin takes its routes' request types from
 * (`app.withTypeProvider<RequestTypesFromSchemas>()`): params, querystring and body are typed from their
 * JSON schemas by json-schema-to-ts, so a route's schema is the one statement of its input.
 *
 * Replies are left untyped. Most are sent as JSON text rendered before the request (sendJson.ts), and
 * the response schemas document the shape with `$ref`s the types cannot follow and without
 * `additionalProperties: false` (the serialiser drops unlisted properties anyway), which would demand an
 * index signature of every interface a handler returns.
 *
 * A declaration file, so that the build emits nothing for it and the package's declarations name no
 * development dependency: import it by its own path, never through index.ts.
 */
import type { JsonSchemaToTsProvider } from "@fastify/type-provider-json-schema-to-ts";

export interface RequestTypesFromSchemas extends JsonSchemaToTsProvider {
  readonly serializer: unknown;
}
