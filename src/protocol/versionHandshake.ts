/**
 * What a panel and a host of different protocol versions still say to each other. After an update
 * one side may run older code than the other; rather than misreading each other's messages, the host
 * answers the panel's `ready` with `versionMismatch` instead of a snapshot and the panel shows a
 * notice with a Reload button (`reloadView`). These shapes, and `ready`'s, must never change. The
 * protocol inspector's page does the same with its own version (src/protocol/inspectorMessages.ts).
 */
import { isRecord } from './guards';
import { PROTOCOL_VERSION } from './messages';

/** Host → panel, instead of the snapshot. Outside `HostMessage` on purpose: it is not versioned. */
export interface VersionMismatchMessage {
  type: 'versionMismatch';
  /** The host's version of the page's contract (PROTOCOL_VERSION for the chat panel). */
  hostVersion: number;
  /** The version the panel's `ready` named, when it named a number. */
  panelVersion?: number;
}

/**
 * The answer to a page's `ready` that names another protocol version; undefined when they match.
 * `hostVersion`: the page's contract version (the chat panel's PROTOCOL_VERSION unless told; the
 * protocol inspector's is INSPECTOR_PROTOCOL_VERSION).
 */
export function versionMismatchFor(ready: { protocolVersion?: unknown }, hostVersion: number = PROTOCOL_VERSION): VersionMismatchMessage | undefined {
  if (ready.protocolVersion === hostVersion) return undefined;
  const message: VersionMismatchMessage = { type: 'versionMismatch', hostVersion };
  if (typeof ready.protocolVersion === 'number') message.panelVersion = ready.protocolVersion;
  return message;
}

export function isVersionMismatch(value: unknown): value is VersionMismatchMessage {
  return isRecord(value) && value.type === 'versionMismatch' && typeof value.hostVersion === 'number';
}
