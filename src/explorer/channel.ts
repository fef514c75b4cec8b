/** GET /channel/:id: the channel's fields, its followers, the casts under its parent URL. */
import { type Channel, Channels } from "./channels.js";
import { castFids, castList, type HubPage, outLink, table, unixTime } from "./fragments.js";
import { type Html, html } from "./html.js";
import { readPeople } from "./people.js";
import { type Sources, withQuery } from "./sources.js";

export async function channelPage(
  sources: Sources,
  id: string,
): Promise<{ title: string; body: Html } | undefined> {
  const found = await sources.get<{ result: { channel: Channel } }>(
    "api",
    withQuery("/v1/channel", { channelId: id }),
    true,
  );
  if (found === undefined) return undefined;
  const { channel } = found.result;
  const [followers, casts] = await Promise.all([
    sources.get<{ result: { users: { fid: number; followedAt: number }[] } }>(
      "api",
      withQuery("/v1/channel-followers", { channelId: id, limit: 100 }),
      true,
    ),
    sources.get<HubPage>(
      "hub",
      withQuery("/v1/castsByParent", { url: channel.url, pageSize: 25, reverse: true }),
      true,
    ),
  ]);
  const users = followers?.result.users ?? [];
  const messages = casts?.messages ?? [];
  const people = await readPeople(sources, [
    ...(channel.leadFid === undefined ? [] : [channel.leadFid]),
    ...(channel.moderatorFids ?? []),
    ...users.map((u) => u.fid),
    ...messages.flatMap(castFids),
  ]);
  // Its casts are all under its own URL.
  const lookups = { people, channels: new Channels([channel]) };
  const body = html` <section aria-labelledby="fields-h">
      <h2 id="fields-h">Channel</h2>
      <dl class="facts">
        <div>
          <dt>id</dt>
          <dd>${channel.id}</dd>
        </div>
        <div>
          <dt>name</dt>
          <dd>${channel.name}</dd>
        </div>
        <div>
          <dt>description</dt>
          <dd>${channel.description ?? ""}</dd>
        </div>
        <div>
          <dt>parent URL</dt>
          <dd>${outLink(channel.url)}</dd>
        </div>
        <div>
          <dt>lead</dt>
          <dd>${channel.leadFid === undefined ? "—" : people.link(channel.leadFid)}</dd>
        </div>
        <div>
          <dt>moderators</dt>
          <dd>
            <ul class="people">
              ${(channel.moderatorFids ?? []).map((fid) => html`<li>${people.link(fid)}</li>`)}
            </ul>
          </dd>
        </div>
        <div>
          <dt>created</dt>
          <dd>${unixTime(channel.createdAt)}</dd>
        </div>
        <div>
          <dt>followers</dt>
          <dd>${channel.followerCount}</dd>
        </div>
      </dl>
    </section>
    <section aria-labelledby="followers-h">
      <h2 id="followers-h">Followers</h2>
      ${table(
        "Latest followers",
        ["who", "since"],
        users.map((u) => [people.link(u.fid), unixTime(u.followedAt)]),
      )}
    </section>
    <section aria-labelledby="casts-h">
      <h2 id="casts-h">Casts</h2>
      ${castList(messages, "No casts in this channel yet.", lookups)}
    </section>`;
  return { title: `Channel /${channel.id}`, body };
}
