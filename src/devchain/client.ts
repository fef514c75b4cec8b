/**
 * What the other parts may ask of the chain. Two implementations: in-process (the all-in-one
 * `castnet start`) and over the devchain's HTTP interface (a part started alone with --chain-url).
 */
export type Hex = `0x${string}`;

export interface SignerInfo {
  key: Hex;
  keyType: number;
  metadataType: number;
  metadata: Hex;
}

export interface Account {
  fid: number;
  custody: Hex;
  recovery: Hex;
  signers: SignerInfo[];
  storageUnits: number;
}

export interface KeyAddRequest {
  fid: number;
  key: Hex;
  keyType?: number;
  metadataType?: number;
  metadata?: Hex;
}

/** A transaction is pending until the next block is mined (at once with --block-time 0). */
export interface TransactionStatus {
  transactionHash: Hex;
  status: "pending" | "mined" | "failed";
  blockNumber?: number;
  /** Why a transaction failed when it was mined (e.g. the key was added meanwhile). */
  error?: string;
}

export interface ChainClient {
  getAccount(fid: number): Promise<Account | undefined>;
  custodyOf(fid: number): Promise<Hex | undefined>;
  fidOf(custody: Hex): Promise<number | undefined>;
  submitKeyAdd(request: KeyAddRequest): Promise<TransactionStatus>;
  getTransaction(hash: Hex): Promise<TransactionStatus | undefined>;
}
