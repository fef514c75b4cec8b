import type { Insertable } from "kysely";
import type { ActionRow } from "./actionStore.js";
import { badInput } from "./errors.js";
import { ACTION_ICONS } from "./icons.js";
import { type ActionJson, renderAction } from "./render.js";
import type { ActionKind, ApiTables } from "./tables.js";
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

export function checkNewAction(input: NewAction): void {
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
export function newActionRow(input: NewAction, createdAt: number): Insertable<ApiTables["api_actions"]> {
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

export function actionRecord(row: ActionRow): ActionRecord {
  const record: ActionRecord = {
    id: row.id,
    type: row.kind,
    ...renderAction(row),
    installCount: row.install_count,
  };
  if (row.featured_rank !== null) record.featuredRank = row.featured_rank;
  return record;
}
