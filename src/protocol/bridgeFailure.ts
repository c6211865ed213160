/**
 * The hosted bridge's contract with the editor, across two programs (src/hostedAgent is its own
 * process; the host reads what it sends): the structured facts of a failed request, carried as
 * `data.tandem` of the JSON-RPC error, and where the bridge announces its own check
 * (`_meta.tandem.hosted.checkMethod` in the initialize result). Declared here because both
 * programs may import src/protocol; the bridge builds with {@link bridgeFailureData}, the host reads
 * with {@link readBridgeFailure} and {@link readHostedCheckMethod} — untrusted input, never cast.
 *
 *   missingContext  status 400, missingContext[], tools[], serverMessage?
 *   auth            status 401 | 403 | absent, envVar, serverMessage?   (JSON-RPC code -32000)
 *   rateLimited, server   status, retryAfterSeconds?, retryAt?, serverMessage?
 *   http            status, location?, serverMessage?
 *   config          missingEnv[]
 *   serverError     errors[]?
 *   notEventStream  contentType
 *   timeout, tooLarge, unreachable, connectionLost, badAnswer: no details
 */
import { isRecord } from './guards';

export const BRIDGE_FAILURE_KINDS = [
  'missingContext',
  'auth',
  'rateLimited',
  'server',
  'http',
  'timeout',
  'tooLarge',
  'unreachable',
  'connectionLost',
  'notEventStream',
  'badAnswer',
  'serverError',
  'config',
] as const;

export type BridgeFailureKind = (typeof BRIDGE_FAILURE_KINDS)[number];

/** The JSON-RPC error code of an `auth` failure (every other kind answers -32603). */
export const BRIDGE_AUTH_ERROR_CODE = -32000;
export const BRIDGE_INTERNAL_ERROR_CODE = -32603;

/** The details a failure may carry; which ones a kind carries is in the table above. */
export interface BridgeFailureDetails {
  status?: number;
  serverMessage?: string;
  envVar?: string;
  missingContext?: string[];
  tools?: string[];
  missingEnv?: string[];
  retryAfterSeconds?: number;
  retryAt?: string;
  location?: string;
  errors?: string[];
  contentType?: string;
}

export interface BridgeFailure extends BridgeFailureDetails {
  kind: BridgeFailureKind;
}

/** The `data` of the bridge's RequestError. */
export function bridgeFailureData(kind: BridgeFailureKind, details: BridgeFailureDetails = {}): { tandem: BridgeFailure } {
  return { tandem: { kind, ...details } };
}

export function bridgeFailureCode(kind: BridgeFailureKind): number {
  return kind === 'auth' ? BRIDGE_AUTH_ERROR_CODE : BRIDGE_INTERNAL_ERROR_CODE;
}

export function isBridgeFailureKind(value: unknown): value is BridgeFailureKind {
  return typeof value === 'string' && (BRIDGE_FAILURE_KINDS as readonly string[]).includes(value);
}

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * The failure in an error's `data`, when it is the bridge's (an unknown kind is not: a newer
 * bridge's kind is read as no failure rather than as a wrong one). Fields of the wrong type are
 * dropped; array fields keep only their strings.
 */
export function readBridgeFailure(data: unknown): BridgeFailure | undefined {
  const tandem = isRecord(data) ? data.tandem : undefined;
  if (!isRecord(tandem) || !isBridgeFailureKind(tandem.kind)) return undefined;
  const fields: BridgeFailureDetails = {
    status: num(tandem.status),
    serverMessage: str(tandem.serverMessage),
    envVar: str(tandem.envVar),
    missingContext: strings(tandem.missingContext),
    tools: strings(tandem.tools),
    missingEnv: strings(tandem.missingEnv),
    retryAfterSeconds: num(tandem.retryAfterSeconds),
    retryAt: str(tandem.retryAt),
    location: str(tandem.location),
    errors: strings(tandem.errors),
    contentType: str(tandem.contentType),
  };
  const present = Object.entries(fields).filter(([, v]) => v !== undefined);
  return { kind: tandem.kind, ...(Object.fromEntries(present) as BridgeFailureDetails) };
}

/** What the bridge says about itself in `_meta.tandem.hosted` of its initialize result. */
export interface HostedAgentMeta {
  url: string;
  format: string;
  stream: boolean;
  /** The extension method that runs the bridge's own check (Check Agent calls it). */
  checkMethod: string;
}

export function hostedAgentMeta(meta: HostedAgentMeta): { tandem: { hosted: HostedAgentMeta } } {
  return { tandem: { hosted: meta } };
}

/** The bridge's check method from an initialize result's `_meta`: an extension method (`_…`) or nothing. */
export function readHostedCheckMethod(meta: unknown): string | undefined {
  const tandem = isRecord(meta) ? meta.tandem : undefined;
  const hosted = isRecord(tandem) ? tandem.hosted : undefined;
  const method = isRecord(hosted) ? hosted.checkMethod : undefined;
  return typeof method === 'string' && method.startsWith('_') ? method : undefined;
}
