/**
 * The part of each registry's interface castnet uses (the devchain models it, the hub's JSON-RPC
 * follower decodes its events): functions, events and custom errors, as human-readable signatures
 * (docs/reference/contracts.md §3–§9). Selectors and topics follow from the signatures;
 * test/devchain/contractAbis.test.ts checks each against the ABIs the protocol's client library
 * exports, so that viem encodes, decodes and names everything as it does for the real contracts.
 */
import { parseAbi } from "viem";

const SIGNATURE_ERRORS = ["error SignatureExpired()", "error InvalidSignature()"] as const;

/** The errors of every signed path (§2.2), which each signing contract declares alike. */
export const signatureErrorsAbi = parseAbi(SIGNATURE_ERRORS);

export const idRegistryAbi = parseAbi([
  "function idOf(address owner) view returns (uint256 fid)",
  "function custodyOf(uint256 fid) view returns (address custody)",
  "function recoveryOf(uint256 fid) view returns (address recovery)",
  "function idCounter() view returns (uint256)",
  "function nonces(address owner) view returns (uint256)",
  "function verifyFidSignature(address custodyAddress, uint256 fid, bytes32 digest, bytes sig) view returns (bool isValid)",
  "function register(address to, address recovery) returns (uint256 fid)",
  "function transfer(address to, uint256 deadline, bytes sig)",
  "function transferFor(address from, address to, uint256 fromDeadline, bytes fromSig, uint256 toDeadline, bytes toSig)",
  "function transferAndChangeRecovery(address to, address recovery, uint256 deadline, bytes sig)",
  "function transferAndChangeRecoveryFor(address from, address to, address recovery, uint256 fromDeadline, bytes fromSig, uint256 toDeadline, bytes toSig)",
  "function changeRecoveryAddress(address recovery)",
  "function changeRecoveryAddressFor(address owner, address recovery, uint256 deadline, bytes sig)",
  "function recover(address from, address to, uint256 deadline, bytes sig)",
  "function recoverFor(address from, address to, uint256 recoveryDeadline, bytes recoverySig, uint256 toDeadline, bytes toSig)",
  "function useNonce() returns (uint256)",
  "event Register(address indexed to, uint256 indexed id, address recovery)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed id)",
  "event ChangeRecoveryAddress(uint256 indexed id, address indexed recovery)",
  "event Recover(address indexed from, address indexed to, uint256 indexed id)",
  "error HasId()",
  "error HasNoId()",
  "error Unauthorized()",
  ...SIGNATURE_ERRORS,
]);

export const idGatewayAbi = parseAbi([
  "function price() view returns (uint256)",
  "function price(uint256 extraStorage) view returns (uint256)",
  "function nonces(address owner) view returns (uint256)",
  "function register(address recovery) payable returns (uint256 fid, uint256 overpayment)",
  "function register(address recovery, uint256 extraStorage) payable returns (uint256 fid, uint256 overpayment)",
  "function registerFor(address to, address recovery, uint256 deadline, bytes sig) payable returns (uint256 fid, uint256 overpayment)",
  "function registerFor(address to, address recovery, uint256 deadline, bytes sig, uint256 extraStorage) payable returns (uint256 fid, uint256 overpayment)",
  "function useNonce() returns (uint256)",
  "error Unauthorized()",
  "error InvalidPayment()",
  "error CallFailed()",
  ...SIGNATURE_ERRORS,
]);

export const keyRegistryAbi = parseAbi([
  "function keyDataOf(uint256 fid, bytes key) view returns ((uint8 state, uint32 keyType))",
  "function keys(uint256 fid, bytes key) view returns (uint8 state, uint32 keyType)",
  "function keysOf(uint256 fid, uint8 state) view returns (bytes[])",
  "function keysOf(uint256 fid, uint8 state, uint256 startIdx, uint256 batchSize) view returns (bytes[] page, uint256 nextIdx)",
  "function totalKeys(uint256 fid, uint8 state) view returns (uint256)",
  "function keyAt(uint256 fid, uint8 state, uint256 index) view returns (bytes)",
  "function maxKeysPerFid() view returns (uint256)",
  "function validators(uint32 keyType, uint8 metadataType) view returns (address validator)",
  "function nonces(address owner) view returns (uint256)",
  "function useNonce() returns (uint256)",
  "function add(address fidOwner, uint32 keyType, bytes key, uint8 metadataType, bytes metadata)",
  "function remove(bytes key)",
  "function removeFor(address fidOwner, bytes key, uint256 deadline, bytes sig)",
  "event Add(uint256 indexed fid, uint32 indexed keyType, bytes indexed key, bytes keyBytes, uint8 metadataType, bytes metadata)",
  "event Remove(uint256 indexed fid, bytes indexed key, bytes keyBytes)",
  "event AdminReset(uint256 indexed fid, bytes indexed key, bytes keyBytes)",
  "error Unauthorized()",
  "error InvalidState()",
  "error ExceedsMaximum()",
  "error InvalidMetadata()",
  "error ValidatorNotFound(uint32 keyType, uint8 metadataType)",
  ...SIGNATURE_ERRORS,
]);

export const keyGatewayAbi = parseAbi([
  "function add(uint32 keyType, bytes key, uint8 metadataType, bytes metadata)",
  "function addFor(address fidOwner, uint32 keyType, bytes key, uint8 metadataType, bytes metadata, uint256 deadline, bytes sig)",
  "function nonces(address owner) view returns (uint256)",
  "function useNonce() returns (uint256)",
  "error InvalidState()",
  "error ExceedsMaximum()",
  "error InvalidMetadata()",
  ...SIGNATURE_ERRORS,
]);

export const storageRegistryAbi = parseAbi([
  "function unitPrice() view returns (uint256)",
  "function price(uint256 units) view returns (uint256)",
  "function rent(uint256 fid, uint256 units) payable returns (uint256 overpayment)",
  "function batchRent(uint256[] fids, uint256[] units) payable",
  "function rentedUnits() view returns (uint256)",
  "function maxUnits() view returns (uint256)",
  "event Rent(address indexed payer, uint256 indexed fid, uint256 units)",
  "error Unauthorized()",
  "error InvalidPayment()",
  "error CallFailed()",
  "error InvalidAmount()",
  "error InvalidBatchInput()",
  "error ExceedsCapacity()",
]);

export const bundlerAbi = parseAbi([
  "struct RegistrationParams { address to; address recovery; uint256 deadline; bytes sig; }",
  "struct SignerParams { uint32 keyType; bytes key; uint8 metadataType; bytes metadata; uint256 deadline; bytes sig; }",
  "function price(uint256 extraStorage) view returns (uint256)",
  "function register(RegistrationParams registerParams, SignerParams[] signerParams, uint256 extraStorage) payable returns (uint256)",
  "error Unauthorized()",
  "error InvalidPayment()",
  "error CallFailed()",
  "error InvalidState()",
  "error ExceedsMaximum()",
  "error InvalidMetadata()",
  ...SIGNATURE_ERRORS,
]);

export const signedKeyRequestValidatorAbi = parseAbi([
  "struct SignedKeyRequestMetadata { uint256 requestFid; address requestSigner; bytes signature; uint256 deadline; }",
  "function validate(uint256 userFid, bytes key, bytes signedKeyRequestBytes) view returns (bool)",
  "function encodeMetadata(SignedKeyRequestMetadata metadata) pure returns (bytes)",
]);
