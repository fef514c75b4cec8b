/**
 * What the client API needs from the hub: the activity that awards power badges, and the profile a
 * sign-in reports. The hub implements it in-process (its HubService); the stack wires that
 * implementation into `createClientApi`.
 */
export interface ActivitySource {
  /**
   * For each author fid: how many distinct fids reacted (like or recast) to the author's casts with
   * a reaction whose timestamp is at or after `sinceUnixSeconds`. Authors with no such reactor may be
   * left out. A fid reacting to its own casts is not counted.
   */
  reactorsByAuthor(sinceUnixSeconds: number): Promise<Map<number, number>>;
  /** The fid's current user data and verified addresses, as a completed sign-in reports them. */
  profileOf(fid: number): Promise<HubProfile>;
}

export interface HubProfile {
  username?: string;
  displayName?: string;
  bio?: string;
  pfpUrl?: string;
  /** Verified addresses (Ethereum and Solana), in the hub's order. */
  verifications: string[];
}

/** The hub's page size: a fid's user data (one message per type) and verifications fit in one page. */
export const PROFILE_PAGE_SIZE = 1000;

const PROFILE_FIELDS: Record<string, Exclude<keyof HubProfile, "verifications">> = {
  USER_DATA_TYPE_USERNAME: "username",
  USER_DATA_TYPE_DISPLAY: "displayName",
  USER_DATA_TYPE_BIO: "bio",
  USER_DATA_TYPE_PFP: "pfpUrl",
};

interface ProfileMessage {
  data?: {
    userDataBody?: { type?: string; value?: string };
    verificationAddAddressBody?: { address?: string };
    verificationAddEthAddressBody?: { address?: string };
  };
}

/** A profile from the hub's JSON messages of the fid's user data and verifications (either order, either page). */
export function profileFromMessages(messages: readonly ProfileMessage[]): HubProfile {
  const profile: HubProfile = { verifications: [] };
  for (const { data } of messages) {
    const field = PROFILE_FIELDS[data?.userDataBody?.type ?? ""];
    // An empty value is how a user clears a field.
    if (field !== undefined && data?.userDataBody?.value) profile[field] = data.userDataBody.value;
    const address = (data?.verificationAddAddressBody ?? data?.verificationAddEthAddressBody)?.address;
    if (address !== undefined) profile.verifications.push(address);
  }
  return profile;
}
