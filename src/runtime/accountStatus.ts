/**
 * Who the agent is signed in as, from untrusted JSON, as one AccountView. Two shapes exist:
 * - claude-agent-acp 0.101 and codex-acp 2.6 push `_auth/status_update {authStatus: {kind, label,
 *   detail}}` (after initialize, a sign-in, a logout, each session; recorded in
 *   test/fixtures/agentPayloads/novemberStatus.json); `kind: "none"` is a known signed-out state,
 *   silence means the agent cannot tell;
 * - ACP's unstable `auth/status_update` notification (and `auth/status` answer): `{state, accounts}`,
 *   where only `state` is to be acted on and an unknown state counts as `unknown`.
 */
import * as l10n from '@vscode/l10n';
import type { AccountView } from '../protocol/messages';
import { isRecord } from '../protocol/guards';
import type { Draft } from '../protocol/draft';

const MAX_TEXT = 200;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_TEXT) : undefined;
}

/** `{kind, label, detail}` of the adapters' `authStatus`. */
function fromVendor(status: Record<string, unknown>): AccountView | undefined {
  const kind = text(status.kind);
  const label = text(status.label) ?? kind;
  if (label === undefined) return undefined;
  const view: Draft<AccountView> = { label };
  if (kind !== undefined) view.signedIn = kind !== 'none';
  const detail = text(status.detail);
  if (detail !== undefined && detail !== label) view.detail = detail;
  return view;
}

/** `{state, accounts}` of ACP's `auth/status`: the active account (else the first) names the identity. */
function fromAcp(status: Record<string, unknown>): AccountView | undefined {
  const state = text(status.state);
  const accounts = Array.isArray(status.accounts) ? status.accounts.filter(isRecord) : [];
  const account = accounts.find((a) => a.active === true) ?? accounts[0];
  const name = account ? (text(account.email) ?? text(account.name) ?? text(account.label)) : undefined;
  const detail = account ? [text(account.label), text(account.organization)].filter((p) => p !== undefined && p !== name).join(' · ') : '';
  if (state === 'authenticated') return { signedIn: true, label: name ?? l10n.t('Signed in'), ...(detail ? { detail } : {}) };
  if (state === 'unauthenticated') return { signedIn: false, label: name ?? l10n.t('Not signed in') };
  // not_required, unknown and states this client does not know say nothing about an identity.
  return name === undefined ? undefined : { label: name, ...(detail ? { detail } : {}) };
}

/** The params of either notification, or an `auth/status` result; undefined when they name no one. */
export function parseAccountStatus(params: unknown): AccountView | undefined {
  if (!isRecord(params)) return undefined;
  if (isRecord(params.authStatus)) return fromVendor(params.authStatus);
  if (typeof params.state === 'string') return fromAcp(params);
  return undefined;
}

/** Same account, same words: a push that repeats the last one changes nothing. */
export function sameAccount(a: AccountView | undefined, b: AccountView | undefined): boolean {
  return a?.signedIn === b?.signedIn && a?.label === b?.label && a?.detail === b?.detail;
}
