/**
 * People as the pages name them: display name, @username and fid, with a picture. A page gathers
 * the fids it shows and reads their profiles once (one hub read of user data per fid); a fid beyond
 * MAX_PEOPLE, or one without a profile, is shown by its fid alone.
 */
import { avatarPath } from "./avatar.js";
import type { HubPage } from "./hubJson.js";
import { type Html, html } from "./html.js";
import { fullName, namesOf, type PersonNames, shortName } from "./personNames.js";
import { type Sources, withQuery } from "./sources.js";

export interface Person extends PersonNames {
  /** The profile picture when the page may load it (https, or this server's own), else the generated one. */
  picture: string;
}

/** Profiles read per page at most: a page of 100 followers and 100 follows, and the page's own. */
const MAX_PEOPLE = 210;
/** Profile reads in flight at once. */
const AT_ONCE = 20;

export class People {
  constructor(private readonly known: ReadonlyMap<number, Person>) {}

  get(fid: number): Person {
    return this.known.get(fid) ?? { fid, picture: avatarPath(fid) };
  }

  /** "@ana", or "fid 5" for a fid with no username: for sentences and titles. */
  short(fid: number): string {
    return shortName(this.get(fid));
  }

  /** "Ana Ruiz @ana (fid 5)", or "fid 5": a page's title. */
  title(fid: number): string {
    return fullName(this.get(fid));
  }

  /** "Ana Ruiz @ana (fid 5)" with the picture, linked to the fid's page. */
  link(fid: number): Html {
    const person = this.get(fid);
    return html`<a class="person" href="/fid/${fid}">${picture(person, 20)}${label(person)}</a>`;
  }

  /** "@ana" (or "fid 5"), linked to the fid's page: inside a sentence. */
  shortLink(fid: number): Html {
    return html`<a href="/fid/${fid}">${this.short(fid)}</a>`;
  }

  /** The picture of `fid` at `size` pixels, with alt text naming it. */
  picture(fid: number, size: number): Html {
    const person = this.get(fid);
    return picture(person, size, `Profile picture of ${person.display ?? this.short(fid)}`);
  }
}

function label(person: Person): Html {
  const username = person.username === undefined ? "" : html`<span class="handle">@${person.username}</span>`;
  if (person.display === undefined && person.username === undefined) return html`fid ${person.fid}`;
  return html`${person.display === undefined ? "" : html`<bdi>${person.display}</bdi> `}${username}
    <span class="fid">(fid ${person.fid})</span>`;
}

/**
 * A picture that falls back to the generated avatar (app.js swaps it in when the chosen one does not
 * load); decorative, with empty alt text, beside a name.
 */
function picture(person: Person, size: number, alt = ""): Html {
  return html`<img
    class="avatar${size < 40 ? " small" : ""}"
    src="${person.picture}"
    data-fallback="${avatarPath(person.fid)}"
    alt="${alt}"
    width="${size}"
    height="${size}"
  />`;
}

/** The profiles of `fids` (at most MAX_PEOPLE of them). */
export async function readPeople(sources: Sources, fids: Iterable<number>): Promise<People> {
  const wanted = [...new Set(fids)]
    .filter((fid) => Number.isSafeInteger(fid) && fid > 0)
    .slice(0, MAX_PEOPLE);
  const own = ownOrigin(sources.urls().api);
  const known = new Map<number, Person>();
  for (let i = 0; i < wanted.length; i += AT_ONCE) {
    const batch = wanted.slice(i, i + AT_ONCE);
    const pages = await Promise.all(
      batch.map((fid) => sources.get<HubPage>("hub", withQuery("/v1/userDataByFid", { fid }), true)),
    );
    batch.forEach((fid, j) => known.set(fid, personOf(fid, pages[j]?.messages ?? [], own)));
  }
  return new People(known);
}

export function personOf(fid: number, messages: HubPage["messages"], own: string | undefined): Person {
  const picture = messages.find((m) => m.data.userDataBody?.type === "USER_DATA_TYPE_PFP");
  return {
    ...namesOf(fid, messages),
    picture: loadablePicture(picture?.data.userDataBody?.value, own) ?? avatarPath(fid),
  };
}

/**
 * A profile picture the page may load: an https URL, or one of this server's own (the demo world's
 * generated avatars); the page's img-src allows nothing else.
 */
export function loadablePicture(
  value: string | undefined,
  ownOrigin: string | undefined,
): string | undefined {
  if (value === undefined || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol === "https:") return url.href;
  if (ownOrigin !== undefined && url.origin === ownOrigin) return `${url.pathname}${url.search}`;
  return undefined;
}

export function ownOrigin(apiUrl: string | undefined): string | undefined {
  return apiUrl !== undefined && URL.canParse(apiUrl) ? new URL(apiUrl).origin : undefined;
}
