/** What a page reads once to name what it shows: the people among `fids` and the casts, and the channels. */
import { NO_CHANNELS, readChannels } from "./channels.js";
import { castFids, type HubMessage, type Lookups } from "./fragments.js";
import { readPeople } from "./people.js";
import type { Sources } from "./sources.js";

export async function readLookups(
  sources: Sources,
  fids: Iterable<number>,
  casts: readonly HubMessage[] = [],
): Promise<Lookups> {
  // The channels are read only when a cast has a parent URL to name.
  const needChannels = casts.some((cast) => cast.data.castAddBody?.parentUrl !== undefined);
  const [people, channels] = await Promise.all([
    readPeople(sources, [...fids, ...casts.flatMap(castFids)]),
    needChannels ? readChannels(sources) : Promise.resolve(NO_CHANNELS),
  ]);
  return { people, channels };
}
