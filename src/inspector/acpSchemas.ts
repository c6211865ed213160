/**
 * The zod schemas the ACP SDK generates from the protocol's JSON schema, by method. The SDK's
 * package exports only its API, not the schema module, so it is imported by file: esbuild resolves
 * it to the same module the SDK itself imports (one copy in the bundle), and the schemas are
 * exactly the ones the SDK validates with — a warning here is what the SDK would drop or reject.
 */
import * as z from '../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js';

/** The part of a zod schema used here (safeParse only: never throws). */
export interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<SchemaIssue> } };
}

export interface SchemaIssue {
  code: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  /** Branches of a failed union, each with its own issues. */
  errors?: ReadonlyArray<ReadonlyArray<SchemaIssue>>;
}

const schema = (s: unknown): Schema => s as Schema;

/** Params of what the agent may ask or tell the client. */
export const AGENT_TO_CLIENT_PARAMS: Readonly<Record<string, Schema>> = {
  'session/request_permission': schema(z.zRequestPermissionRequest),
  'session/update': schema(z.zSessionNotification),
  'fs/read_text_file': schema(z.zReadTextFileRequest),
  'fs/write_text_file': schema(z.zWriteTextFileRequest),
  'terminal/create': schema(z.zCreateTerminalRequest),
  'terminal/output': schema(z.zTerminalOutputRequest),
  'terminal/release': schema(z.zReleaseTerminalRequest),
  'terminal/wait_for_exit': schema(z.zWaitForTerminalExitRequest),
  'terminal/kill': schema(z.zKillTerminalRequest),
  'elicitation/create': schema(z.zCreateElicitationRequest),
  'elicitation/complete': schema(z.zCompleteElicitationNotification),
};

/** Which of those are notifications (the rest are requests and need an id). */
export const AGENT_TO_CLIENT_NOTIFICATIONS: ReadonlySet<string> = new Set(['session/update', 'elicitation/complete']);

/** Results of the client's requests, as the agent must answer them. */
export const AGENT_RESULTS: Readonly<Record<string, Schema>> = {
  initialize: schema(z.zInitializeResponse),
  authenticate: schema(z.zAuthenticateResponse),
  logout: schema(z.zLogoutResponse),
  'session/new': schema(z.zNewSessionResponse),
  'session/load': schema(z.zLoadSessionResponse),
  'session/list': schema(z.zListSessionsResponse),
  'session/delete': schema(z.zDeleteSessionResponse),
  'session/resume': schema(z.zResumeSessionResponse),
  'session/close': schema(z.zCloseSessionResponse),
  'session/set_mode': schema(z.zSetSessionModeResponse),
  'session/set_config_option': schema(z.zSetSessionConfigOptionResponse),
  'session/prompt': schema(z.zPromptResponse),
};

/** Results the SDK accepts as `null` (it reads them as `{}`): no warning for those. */
export const EMPTY_RESULT_OK: ReadonlySet<string> = new Set(['authenticate', 'logout', 'session/load', 'session/delete', 'session/close', 'session/set_mode']);

/** A JSON-RPC error object. */
export const ERROR_SCHEMA: Schema = schema(z.zError);

/** Methods of the protocol itself (either side may send them). */
export const PROTOCOL_NOTIFICATIONS: ReadonlySet<string> = new Set(['$/cancel_request']);

/** `sessionUpdate` kinds the schema knows. */
export const SESSION_UPDATE_KINDS: ReadonlySet<string> = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
]);

/** The stop reasons a `session/prompt` answer may give. */
export const STOP_REASONS: readonly string[] = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'];
