/**
 * The hosted-agent bridge: an ACP agent on stdio whose "model" is a hosted chat API that runs its
 * tools on the server (the seed's `POST /api/v1/chat` tool events, or the Vercel AI SDK's UI
 * message stream). Bundled to dist/hostedAgent.js like the demo agent and usable from any ACP
 * client: `node hostedAgent.js --url URL --format tool-events|ui-message-stream` (see config.ts).
 * Imports the ACP SDK, Node built-ins, https-proxy-agent and pure local helpers only, so the
 * bundle stands alone. stdout is the ACP channel; everything else goes to stderr, redacted.
 */
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { hostedAgentApp } from './agentApp';
import { apiKey, bridgeRedactor, resolveHeaders, stderrLog } from './secrets';
import { ConfigError, parseConfig, USAGE, type HostedConfig } from './config';
import { urlSecrets } from '../util/secretShapes';

// The process's one set of secrets: every line on stderr and every error to the client is masked with it.
const secrets = bridgeRedactor();
const { log, warn } = stderrLog(secrets);

function configure(): HostedConfig {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(0);
  }
  try {
    return parseConfig(argv, process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warn(err.message);
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
}

const cfg = configure();
secrets.add(apiKey(process.env));
// A key in the address (`?code=` of Azure Functions, `user:pass@`) is masked in every error and line too.
urlSecrets(cfg.url).forEach((s) => secrets.add(s));
// Registers every secret header value for redaction before anything is logged.
resolveHeaders(cfg.headers, process.env, secrets);
const target = new URL(cfg.url);
if (target.protocol === 'http:' && !/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(target.hostname)) {
  warn(`${target.host} is reached over plain http: the API key and the conversation travel unencrypted.`);
}
if ('messages' in cfg.body) warn('"body.messages" is ignored: the bridge sends the conversation itself.');
log(
  `${cfg.format} at ${target.host}${target.pathname}${cfg.format === 'tool-events' && !cfg.stream ? ' (JSON answers)' : ''}; conversations in ${cfg.stateDir}`,
);

const connection = hostedAgentApp({ cfg, env: process.env, warn, secrets }).connect(
  acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
);
// The client closing stdin ends the bridge (its conversations are already on disk).
void connection.closed.then(() => process.exit(0));
process.stdin.on('end', () => process.exit(0));
