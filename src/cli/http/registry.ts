/** The name registry's HTTP API as the CLI uses it (docs/registry.md), through the SDK's RegistryClient. */
import type { Hex } from "viem";
import { RegistryClient as SdkRegistryClient } from "../../client/index.js";
import { sdkOptions, throughSdk } from "./request.js";

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
  const sdk = new SdkRegistryClient(base, sdkOptions());
  return {
    base,
    /** The name's latest transfer, or undefined when it is not registered. */
    current: (name: string): Promise<Transfer | undefined> =>
      throughSdk("registry", base, () => sdk.current({ name }), true),
    currentTime: (): Promise<number> => throughSdk("registry", base, () => sdk.currentTime()),
    transfer: (body: TransferRequest): Promise<Transfer> =>
      throughSdk("registry", base, () => sdk.transfer(body)),
  };
}

export type RegistryClient = ReturnType<typeof registryClient>;
