/** GetReaction and the reaction lists (the HTTP API's reactionById, reactionsByFid, …ByCast, …ByTarget). */
import { HubError } from "../../../protocol/errors.js";
import { MessageType, type CastId } from "../../../protocol/generated/message.js";
import type {
  ReactionRequest,
  ReactionsByFidRequest,
  ReactionsByTargetRequest,
} from "../../../protocol/generated/request_response.js";
import { castIdKey, StoreType, urlKey } from "../../data/keys.js";
import { fidList, targetList } from "../../data/messageReads.js";
import { reactionSetKey } from "../../merge/stores/reactions.js";
import { type GrpcContext, type Handlers, messagePage, storedMessage, unary } from "./call.js";

/** A reaction's target from a request's oneof; `method` names the request in the refusal. */
function target(request: { targetCastId?: CastId; targetUrl?: string }, method: string): CastId | string {
  if (request.targetCastId !== undefined) return request.targetCastId;
  if (request.targetUrl !== undefined && request.targetUrl !== "") return request.targetUrl;
  throw new HubError("bad_request.invalid_param", `${method} needs targetCastId or targetUrl`);
}

/** The `kind` column of a reaction is its type's number; none (or 0) lists every type. */
function kindOf(type: number | undefined): string | undefined {
  return type === undefined || type === 0 ? undefined : String(type);
}

export function reactionHandlers(ctx: GrpcContext): Handlers {
  const db = ctx.database.db;
  const byTarget = (method: string) =>
    unary(ctx, async (request: ReactionsByTargetRequest) => {
      const to = target(request, method);
      const key = typeof to === "string" ? urlKey(to) : castIdKey(to);
      return messagePage(
        ctx,
        targetList(db, StoreType.REACTIONS, key, kindOf(request.reactionType)),
        request,
      );
    });
  return {
    getReaction: unary(ctx, async (request: ReactionRequest) => {
      const to = target(request, "GetReaction");
      const type = request.reactionType;
      const body = typeof to === "string" ? { type, targetUrl: to } : { type, targetCastId: to };
      return storedMessage(
        ctx,
        {
          fid: request.fid,
          store: StoreType.REACTIONS,
          setKey: reactionSetKey(body),
          type: MessageType.REACTION_ADD,
        },
        "reaction",
      );
    }),
    getReactionsByFid: unary(ctx, async (request: ReactionsByFidRequest) => {
      const filter = { types: [MessageType.REACTION_ADD], kind: kindOf(request.reactionType) };
      return messagePage(ctx, fidList(db, request.fid, StoreType.REACTIONS, filter), request);
    }),
    getReactionsByCast: byTarget("GetReactionsByCast"),
    getReactionsByTarget: byTarget("GetReactionsByTarget"),
  };
}
