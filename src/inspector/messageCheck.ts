import * as l10n from '@vscode/l10n';
import {
  AGENT_RESULTS,
  AGENT_TO_CLIENT_NOTIFICATIONS,
  AGENT_TO_CLIENT_PARAMS,
  EMPTY_RESULT_OK,
  ERROR_SCHEMA,
  PROTOCOL_NOTIFICATIONS,
  SESSION_UPDATE_KINDS,
} from './acpSchemas';
import { checkSchema, type Finding } from './schemaCheck';
import { pairKey, type WireRecord } from './wireRecord';
import { SessionRules } from './wireRules';

/** Tandem's requests waiting for an answer, remembered at most per connection. */
const MAX_WAITING = 10_000;

interface Connection {
  rules: SessionRules;
  /** Tandem's requests not answered yet, by id: their method and session. */
  waiting: Map<string, { method: string; session?: string }>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks each message from an agent against the SDK's schemas and the wire rules, given every
 * message of the connection in order (Tandem's own are read for context: which request an answer
 * belongs to, when a turn runs). Pure and synchronous; {@link ConformanceMonitor} decides when.
 */
export class MessageChecker {
  private readonly connections = new Map<number, Connection>();

  check(record: Pick<WireRecord, 'dir' | 'conn'>, msg: Record<string, unknown>): Finding[] {
    const c = this.connection(record.conn);
    const method = typeof msg.method === 'string' ? msg.method : undefined;
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined;
    const params = isObject(msg.params) ? msg.params : undefined;
    if (record.dir === 'out') {
      if (method !== undefined && id !== undefined) {
        c.waiting.set(pairKey(record.conn, 'out', id), { method, session: typeof params?.sessionId === 'string' ? params.sessionId : undefined });
        if (c.waiting.size > MAX_WAITING) c.waiting.delete(c.waiting.keys().next().value as string);
        c.rules.clientRequest(method, params);
      }
      return [];
    }
    const findings: Finding[] = [];
    if (msg.jsonrpc !== '2.0')
      findings.push({ rule: 'envelope', severity: 'warning', text: l10n.t('`jsonrpc` is {0}, not "2.0".', JSON.stringify(msg.jsonrpc) ?? 'missing') });
    if (method !== undefined) findings.push(...this.agentMessage(c, method, id, msg.params, params));
    else findings.push(...this.agentAnswer(c, record.conn, id, msg));
    return findings;
  }

  private agentMessage(c: Connection, method: string, id: string | number | undefined, raw: unknown, params: Record<string, unknown> | undefined): Finding[] {
    const schema = AGENT_TO_CLIENT_PARAMS[method];
    if (!schema) {
      if (PROTOCOL_NOTIFICATIONS.has(method) || method.startsWith('_')) return [];
      return [
        { rule: 'unknown-method', severity: 'warning', text: l10n.t('{0} is not an ACP client method (extension methods start with an underscore).', method) },
      ];
    }
    const findings: Finding[] = [];
    const notification = AGENT_TO_CLIENT_NOTIFICATIONS.has(method);
    if (notification && id !== undefined)
      findings.push({ rule: 'envelope', severity: 'warning', text: l10n.t('{0} is a notification but came with an id.', method) });
    if (!notification && id === undefined)
      findings.push({ rule: 'envelope', severity: 'error', text: l10n.t('{0} is a request but came without an id: no answer can reach the agent.', method) });
    const sessionId = typeof params?.sessionId === 'string' ? params.sessionId : undefined;
    if (method === 'session/update') {
      const update = isObject(params?.update) ? params.update : undefined;
      const kind = update?.sessionUpdate;
      if (typeof kind === 'string' && !SESSION_UPDATE_KINDS.has(kind)) {
        findings.push({
          rule: 'unknown-update',
          severity: 'warning',
          text: l10n.t('sessionUpdate {0} is not a kind the ACP schema knows: the SDK drops it and Tandem ignores it.', JSON.stringify(kind)),
        });
        if (sessionId) findings.push(...c.rules.update(sessionId, update ?? {}));
        return findings;
      }
      findings.push(...checkSchema(schema, raw, 'params'));
      if (sessionId && update) findings.push(...c.rules.update(sessionId, update));
      return findings;
    }
    findings.push(...checkSchema(schema, raw ?? {}, 'params'));
    if (!sessionId) return findings;
    if (method === 'session/request_permission') findings.push(...c.rules.permission(sessionId, isObject(params?.toolCall) ? params.toolCall : undefined));
    else findings.push(...c.rules.sessionRequest(sessionId));
    return findings;
  }

  private agentAnswer(c: Connection, conn: number, id: string | number | undefined, msg: Record<string, unknown>): Finding[] {
    if (id === undefined) {
      // The SDK answers unparseable requests with id null; an agent doing so is answering nothing.
      return [{ rule: 'envelope', severity: 'warning', text: l10n.t('A response without an id (or with id null): it answers no request.') }];
    }
    const key = pairKey(conn, 'out', id);
    const request = c.waiting.get(key);
    if (!request)
      return [
        {
          rule: 'unmatched-response',
          severity: 'warning',
          text: l10n.t('This answers id {0}, which Tandem never asked (or that was answered already).', JSON.stringify(id)),
        },
      ];
    c.waiting.delete(key);
    const findings: Finding[] = [];
    const hasResult = 'result' in msg;
    const hasError = msg.error !== undefined;
    if (hasResult && hasError) findings.push({ rule: 'envelope', severity: 'error', text: l10n.t('A response must carry either result or error, not both.') });
    if (!hasResult && !hasError) findings.push({ rule: 'envelope', severity: 'error', text: l10n.t('A response without result or error.') });
    if (hasError) {
      findings.push(...checkSchema(ERROR_SCHEMA, msg.error, 'error'));
      findings.push(...c.rules.agentAnswer(request.method, request.session, undefined, true));
      return findings;
    }
    const result = msg.result;
    const rules = c.rules.agentAnswer(request.method, request.session, isObject(result) ? result : undefined, false);
    findings.push(...rules);
    // A stop reason outside the enum is reported by its rule, more plainly than the schema would.
    if (rules.some((f) => f.rule === 'stop-reason')) return findings;
    const schema = AGENT_RESULTS[request.method];
    if (!schema || ((result === null || result === undefined) && EMPTY_RESULT_OK.has(request.method))) return findings;
    findings.push(...checkSchema(schema, result, 'result'));
    return findings;
  }

  private connection(conn: number): Connection {
    let c = this.connections.get(conn);
    if (!c) this.connections.set(conn, (c = { rules: new SessionRules(), waiting: new Map() }));
    return c;
  }
}
