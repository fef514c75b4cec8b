/** The name registry's HTTP API as the CLI uses it (docs/registry.md). */
import type { Hex } from "viem";
import { request } from "./request.js";

export interface Transfer {
  id: number;
  timestamp: number;
  username: string;
  owner: string;
  from: number;
  to: number;
  user_signature: string;
  server_signature: string;
}

export interface TransferRequest {
  name: string;
  from: number;
  to: number;
  fid: number;
  owner: Hex;
  timestamp: number;
  signature: Hex;
}

export function registryClient(base: string) {
  return {
    base,
    /** The name's latest transfer, or undefined when it is not registered. */
    async current(name: string): Promise<Transfer | undefined> {
      const answer = await request<{ transfer: Transfer } | undefined>(
        "registry",
        base,
        `/transfers/current?name=${encodeURIComponent(name)}`,
        { missingIsUndefined: true },
      );
      return answer?.transfer;
    },
    async currentTime(): Promise<number> {
      return (await request<{ currentTime: number }>("registry", base, "/current-time")).currentTime;
    },
    async transfer(body: TransferRequest): Promise<Transfer> {
      return (await request<{ transfer: Transfer }>("registry", base, "/transfers", { body })).transfer;
    },
  };
}

export type RegistryClient = ReturnType<typeof registryClient>;
