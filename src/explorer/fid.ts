/**
 * GET /fid/:fid: custody and recovery, signers, storage, names and proofs, profile, verifications,
 * casts (paged), reactions, follows and followers, channels followed and the power badge.
 */
import {
  castList,
  castLink,
  count,
  type HubMessage,
  type HubPage,
  outLink,
  protocolTime,
  table,
  unixTime,
} from "./fragments.js";
import { type Html, html } from "./html.js";
import { readLookups } from "./lookups.js";
import type { People } from "./people.js";
import { type Sources, withQuery } from "./sources.js";

interface ChainAccount {
  fid: number;
  custody: string;
  recovery: string;
  storageUnits: number;
}

interface OnChainEvent {
  blockNumber: number;
  blockTimestamp?: number;
  signerEventBody?: { key: string; eventType: string };
}

interface StorageLimits {
  units: number;
  limits: { storeType: string; name: string; limit: number; used: number }[];
}

interface Transfer {
  id: number;
  timestamp: number;
  username: string;
  from: number;
  to: number;
}

interface Proof {
  name: string;
  owner: string;
  type: string;
  timestamp: number;
}

const PAGE_SIZE = 25;

export async function fidPage(
  sources: Sources,
  fid: number,
  castsToken: string | undefined,
): Promise<{ title: string; body: Html } | undefined> {
  const account = await sources.get<ChainAccount>("chain", `/v1/fids/${fid}`);
  if (account === undefined) return undefined;
  const hub = <T>(path: string, query: Record<string, string | number | boolean | undefined>) =>
    sources.get<T>("hub", withQuery(path, { fid, ...query }), true);
  const [
    signerEvents,
    storage,
    proofs,
    userData,
    verifications,
    casts,
    reactions,
    follows,
    followers,
    transfers,
    channels,
    badges,
  ] = await Promise.all([
    hub<{ events: OnChainEvent[] }>("/v1/onChainEventsByFid", { event_type: "EVENT_TYPE_SIGNER" }),
    hub<StorageLimits>("/v1/storageLimitsByFid", {}),
    hub<{ proofs: Proof[] }>("/v1/userNameProofsByFid", {}),
    hub<HubPage>("/v1/userDataByFid", {}),
    hub<HubPage>("/v1/verificationsByFid", {}),
    sources.get<HubPage>(
      "hub",
      withQuery("/v1/castsByFid", { fid, pageSize: PAGE_SIZE, reverse: true, pageToken: castsToken }),
      "The casts page asked for is not one the hub gave out: follow the page's “Older casts” link.",
    ),
    hub<HubPage>("/v1/reactionsByFid", { pageSize: PAGE_SIZE, reverse: true }),
    hub<HubPage>("/v1/linksByFid", { pageSize: 100, reverse: true }),
    hub<HubPage>("/v1/linksByTargetFid", { target_fid: fid, fid: undefined, pageSize: 100, reverse: true }),
    sources.get<{ transfers: Transfer[] }>("registry", `/transfers?fid=${fid}`, true),
    sources.get<{ result: { channels: { id: string; name: string }[] } }>(
      "api",
      `/v1/user-following-channels?fid=${fid}`,
      true,
    ),
    sources.get<{ result: { fids: number[] } }>("api", "/v2/power-badge-users", true),
  ]);

  const profile = new Map(
    (userData?.messages ?? []).map((m) => [m.data.userDataBody!.type, m.data.userDataBody!.value]),
  );
  const username = profile.get("USER_DATA_TYPE_USERNAME");
  const followed = (follows?.messages ?? []).filter((m) => m.data.linkBody?.targetFid !== undefined);
  const lookups = await readLookups(
    sources,
    [
      fid,
      ...followed.map((m) => m.data.linkBody!.targetFid!),
      ...(followers?.messages ?? []).map((m) => m.data.fid),
      ...(transfers?.transfers ?? []).flatMap((t) => [t.from, t.to]),
      ...(reactions?.messages ?? []).flatMap((m) => m.data.reactionBody?.targetCastId?.fid ?? []),
    ],
    casts?.messages ?? [],
  );
  const { people } = lookups;
  const badge = badges?.result.fids.includes(fid) ?? false;
  const signerRows = (signerEvents?.events ?? []).map((event) => [
    html`<code>${event.signerEventBody?.key ?? ""}</code>`,
    event.signerEventBody?.eventType === "SIGNER_EVENT_TYPE_REMOVE" ? "removed" : "active",
    event.blockNumber,
  ]);
  // A key added and later removed is listed by both events; its latest one says what it is now.
  const latestByKey = new Map(signerRows.map((row) => [String(row[0]), row]));

  const body = html` <section aria-labelledby="who-h">
      <h2 id="who-h">Account</h2>
      ${people.picture(fid, 64)}
      <dl class="facts">
        <div>
          <dt>fid</dt>
          <dd>${fid}</dd>
        </div>
        <div>
          <dt>custody</dt>
          <dd><code>${account.custody}</code></dd>
        </div>
        <div>
          <dt>recovery</dt>
          <dd><code>${account.recovery}</code></dd>
        </div>
        <div>
          <dt>power badge</dt>
          <dd>${badge ? "yes" : "no"}</dd>
        </div>
      </dl>
    </section>
    <section aria-labelledby="profile-h">
      <h2 id="profile-h">Profile</h2>
      ${table(
        "User data",
        ["type", "value"],
        [...profile].map(([type, value]) => [
          type.replace("USER_DATA_TYPE_", "").toLowerCase(),
          type === "USER_DATA_TYPE_URL" ? outLink(value) : value,
        ]),
      )}
    </section>
    <section aria-labelledby="signers-h">
      <h2 id="signers-h">Signers</h2>
      ${table("Signer keys, active and removed", ["key", "state", "block"], [...latestByKey.values()])}
    </section>
    <section aria-labelledby="storage-h">
      <h2 id="storage-h">Storage</h2>
      <p>${count(storage?.units ?? account.storageUnits, "unit")} of storage.</p>
      ${table(
        "Use per store",
        ["store", "used", "limit"],
        (storage?.limits ?? []).map((l) => [l.name || l.storeType, l.used, l.limit]),
      )}
    </section>
    <section aria-labelledby="names-h">
      <h2 id="names-h">Names</h2>
      ${table(
        "Name transfers to and from this fid",
        ["name", "from", "to", "time"],
        (transfers?.transfers ?? []).map((t) => [
          html`<a href="/name/${t.username}">${t.username}</a>`,
          t.from === 0 ? "—" : people.shortLink(t.from),
          t.to === 0 ? "—" : people.shortLink(t.to),
          unixTime(t.timestamp),
        ]),
      )}
      ${table(
        "Username proofs",
        ["name", "type", "owner", "time"],
        (proofs?.proofs ?? []).map((p) => [
          p.name,
          p.type,
          html`<code>${p.owner}</code>`,
          unixTime(p.timestamp),
        ]),
      )}
      ${username ? html`<p>Username in profile: <a href="/name/${username}">${username}</a></p>` : ""}
    </section>
    <section aria-labelledby="verifications-h">
      <h2 id="verifications-h">Verifications</h2>
      ${table(
        "Verified addresses",
        ["address", "protocol", "time"],
        (verifications?.messages ?? []).map((m) => [
          html`<code>${m.data.verificationAddAddressBody?.address ?? ""}</code>`,
          m.data.verificationAddAddressBody?.protocol ?? "",
          protocolTime(m.data.timestamp),
        ]),
      )}
    </section>
    <section aria-labelledby="casts-h">
      <h2 id="casts-h">Casts</h2>
      ${castList(casts?.messages ?? [], "No casts.", lookups)}
      ${casts?.nextPageToken ? html`<p><a rel="next" href="/fid/${fid}?casts=${encodeURIComponent(casts.nextPageToken)}">Older casts</a></p>` : ""}
    </section>
    <section aria-labelledby="reactions-h">
      <h2 id="reactions-h">Reactions</h2>
      ${table(
        "Latest reactions",
        ["type", "target", "time"],
        (reactions?.messages ?? []).map((m) => reactionRow(m, people)),
      )}
    </section>
    <section aria-labelledby="follows-h">
      <h2 id="follows-h">Follows</h2>
      ${table(
        "Follows",
        ["who", "since"],
        followed.map((m) => [people.link(m.data.linkBody!.targetFid!), protocolTime(m.data.timestamp)]),
      )}
      ${table(
        "Followers",
        ["who", "since"],
        (followers?.messages ?? []).map((m) => [people.link(m.data.fid), protocolTime(m.data.timestamp)]),
      )}
    </section>
    <section aria-labelledby="channels-h">
      <h2 id="channels-h">Channels followed</h2>
      ${table(
        "Channels",
        ["channel", "name"],
        (channels?.result.channels ?? []).map((c) => [html`<a href="/channel/${c.id}">/${c.id}</a>`, c.name]),
      )}
    </section>`;
  return { title: people.title(fid), body };
}

function reactionRow(message: HubMessage, people: People): unknown[] {
  const body = message.data.reactionBody;
  const type = body?.type === "REACTION_TYPE_RECAST" ? "recast" : "like";
  const target = body?.targetCastId
    ? html`${castLink(body.targetCastId)} by ${people.shortLink(body.targetCastId.fid)}`
    : outLink(body?.targetUrl);
  return [type, target, protocolTime(message.data.timestamp)];
}
