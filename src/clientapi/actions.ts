import type { Insertable } from "kysely";
import { serializedTransaction } from "../storage/index.js";
import type { ActionRow } from "./actionStore.js";
import * as actionStore from "./actionStore.js";
import type { ApiContext } from "./context.js";
import { badInput, conflict, notFound } from "./errors.js";
import { ACTION_ICONS } from "./icons.js";
import { type CursorPage, type PageQuery, readPage } from "./paging.js";
import { type ActionJson, renderAction } from "./render.js";
import {
  type ActionKind,
  type ClientApiDb,
  CLIENT_API_TABLE_PREFIX,
  type ClientApiTables,
} from "./tables.js";
import { WEB_SCHEMES, isUrl } from "./urls.js";

export interface NewAction {
  type: ActionKind;
  name: string;
  icon: string;
  description: string;
  aboutUrl: string;
  actionUrl: string;
  /** Where clients POST; defaults to actionUrl, as clients do when the metadata names none. */
  postUrl?: string;
  /** Composer actions only, and required for them. */
  imageUrl?: string;
}

/** An action as operators see it: its id, kind, install count and place in the featured list. */
export interface ActionRecord extends ActionJson {
  id: number;
  type: ActionKind;
  installCount: number;
  featuredRank?: number;
}

function checkNewAction(input: NewAction): void {
  if (!ACTION_ICONS.includes(input.icon))
    throw badInput(`icon "${input.icon}" is not one of the allowed Octicon names (see docs/clientapi.md)`);
  for (const [field, value] of [
    ["aboutUrl", input.aboutUrl],
    ["actionUrl", input.actionUrl],
    ["postUrl", input.postUrl],
    ["imageUrl", input.imageUrl],
  ] as const) {
    if (value !== undefined && !isUrl(value, WEB_SCHEMES))
      throw badInput(`${field} must be an http or https URL`);
  }
  if (input.type === "composer" && input.imageUrl === undefined)
    throw badInput("a composer action needs an imageUrl");
  if (input.type === "cast" && input.imageUrl !== undefined)
    throw badInput("imageUrl is only for composer actions");
}

/** A checked action as its new row: no installs yet, not featured. */
function newActionRow(input: NewAction, createdAt: number): Insertable<ClientApiTables["api_actions"]> {
  return {
    kind: input.type,
    name: input.name,
    icon: input.icon,
    description: input.description,
    about_url: input.aboutUrl,
    action_url: input.actionUrl,
    post_url: input.postUrl ?? input.actionUrl,
    image_url: input.imageUrl ?? null,
    install_count: 0,
    featured_rank: null,
    created_at: createdAt,
  };
}

function actionRecord(row: ActionRow): ActionRecord {
  const record: ActionRecord = {
    id: row.id,
    type: row.kind,
    ...renderAction(row),
    installCount: row.install_count,
  };
  if (row.featured_rank !== null) record.featuredRank = row.featured_rank;
  return record;
}

async function existingAction(trx: ClientApiDb, actionId: number): Promise<ActionRow> {
  const action = await actionStore.getAction(trx, actionId);
  if (!action) throw notFound(`No action found with id ${actionId}`);
  return action;
}

async function recordOf(db: ClientApiDb, actionId: number): Promise<ActionRecord> {
  return actionRecord((await actionStore.getAction(db, actionId))!);
}

/**
 * Cast and composer actions: the discover lists, and the operator's registrations, installs and
 * featured list.
 */
export class Actions {
  constructor(private readonly ctx: ApiContext) {}

  top(kind: ActionKind, query: PageQuery): Promise<CursorPage<ActionJson>> {
    return readPage(
      this.ctx.cursors,
      `top:${kind}`,
      query,
      (after, limit) => actionStore.topActions(this.ctx.database.db, kind, after, limit),
      (row) => [row.install_count, row.id],
      renderAction,
    );
  }

  featured(query: PageQuery): Promise<CursorPage<ActionJson>> {
    return readPage(
      this.ctx.cursors,
      "featured",
      query,
      (after, limit) => actionStore.featuredActions(this.ctx.database.db, after, limit),
      (row) => [row.featured_rank ?? 0, row.id],
      renderAction,
    );
  }

  async list(): Promise<ActionRecord[]> {
    return (await actionStore.listActions(this.ctx.database.db)).map(actionRecord);
  }

  async register(input: NewAction): Promise<ActionRecord> {
    checkNewAction(input);
    return serializedTransaction(this.ctx.database, `${CLIENT_API_TABLE_PREFIX}:actions`, async (trx) => {
      if ((await actionStore.actionIdByUrl(trx, input.type, input.actionUrl)) !== undefined)
        throw conflict(`a ${input.type} action with actionUrl ${input.actionUrl} is already registered`);
      const id = await actionStore.insertAction(trx, newActionRow(input, this.ctx.nowSeconds()));
      return recordOf(trx, id);
    });
  }

  install(actionId: number, fid: number): Promise<ActionRecord> {
    return serializedTransaction(
      this.ctx.database,
      `${CLIENT_API_TABLE_PREFIX}:action:${actionId}`,
      async (trx) => {
        await existingAction(trx, actionId);
        await actionStore.install(trx, actionId, fid, this.ctx.nowSeconds());
        return recordOf(trx, actionId);
      },
    );
  }

  uninstall(actionId: number, fid: number): Promise<ActionRecord> {
    return serializedTransaction(
      this.ctx.database,
      `${CLIENT_API_TABLE_PREFIX}:action:${actionId}`,
      async (trx) => {
        await existingAction(trx, actionId);
        await actionStore.uninstall(trx, actionId, fid);
        return recordOf(trx, actionId);
      },
    );
  }

  /** Puts a composer action in the featured list at `rank` (lower first; ties by id), or last. */
  feature(actionId: number, rank?: number): Promise<ActionRecord> {
    return serializedTransaction(this.ctx.database, `${CLIENT_API_TABLE_PREFIX}:actions`, async (trx) => {
      const action = await existingAction(trx, actionId);
      if (action.kind !== "composer")
        throw conflict(`action ${actionId} is a cast action; only composer actions are featured`);
      await actionStore.setFeaturedRank(trx, actionId, rank ?? (await actionStore.lastFeaturedRank(trx)) + 1);
      return recordOf(trx, actionId);
    });
  }

  unfeature(actionId: number): Promise<ActionRecord> {
    return serializedTransaction(this.ctx.database, `${CLIENT_API_TABLE_PREFIX}:actions`, async (trx) => {
      await existingAction(trx, actionId);
      await actionStore.setFeaturedRank(trx, actionId, null);
      return recordOf(trx, actionId);
    });
  }
}
