/**
 * What the client API needs from the hub to award power badges. The hub implements it in-process
 * (its HubService); the stack wires that implementation into `createClientApi`.
 */
export interface ActivitySource {
  /**
   * For each author fid: how many distinct fids reacted (like or recast) to the author's casts with
   * a reaction whose timestamp is at or after `sinceUnixSeconds`. Authors with no such reactor may be
   * left out. A fid reacting to its own casts is not counted.
   */
  reactorsByAuthor(sinceUnixSeconds: number): Promise<Map<number, number>>;
}
