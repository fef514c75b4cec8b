/**
 * Route schemas compiled when a route is first used instead of when its server starts. Fastify
 * compiles every route's validators (ajv) and response serializers (fast-json-stringify) before it
 * listens: for the four parts about a second of CPU, a third of what starting the stack costs,
 * spent on routes of which a session uses a few. Compiled at first use, each costs a few ms once.
 */
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";

/** The function `compile` returns, made at the first call: every call after it goes straight there. */
export function compiledOnFirstCall<A, R>(compile: () => (argument: A) => R): (argument: A) => R {
  let compiled: ((argument: A) => R) | undefined;
  return (argument) => (compiled ??= compile())(argument);
}

const eagerSerializers = SerializerSelector();

/** Fastify's own response serializers (fast-json-stringify, shared schemas included), each compiled at first use. */
export const buildSerializer: typeof eagerSerializers = (externalSchemas, options) => {
  const compile = eagerSerializers(externalSchemas, options);
  return (route) => compiledOnFirstCall(() => compile(route));
};
