/**
 * "Tandem Demo": a scripted ACP agent that needs no model. Bundled to dist/demoAgent.js and spoken
 * to over stdio like any other agent, it shows off every part of the panel (see tour.ts).
 * Imports only the ACP SDK and Node built-ins so the bundle stands alone.
 *
 * Environment: TANDEM_DEMO_DELAY_SCALE multiplies every pause (default 1; tests use 0 for speed).
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { chooseShow, demoCommands, promptTextOf, runShow } from './tour';
import { Cancelled, Turn } from './turn';
import type { DemoMode, DemoSession } from './turn';

const VERSION = '0.1.0';
const delayScale = (() => {
  const n = Number(process.env.TANDEM_DEMO_DELAY_SCALE ?? '1');
  return Number.isFinite(n) && n >= 0 ? n : 1;
})();

const sessions = new Map<string, DemoSession>();

/** Modes show off the client's mode picker; they change the pace of the show. */
const MODES: Array<{ id: DemoMode; name: string; description: string }> = [
  { id: 'tour', name: 'Guided tour', description: 'Paced so you can follow each step' },
  { id: 'fast', name: 'Fast', description: 'No pauses between steps' },
];

function modeState(current: DemoMode): acp.SessionModeState {
  return { currentModeId: current, availableModes: MODES };
}
let clientCaps: acp.ClientCapabilities = {};

function sessionOf(sessionId: string): DemoSession {
  const session = sessions.get(sessionId);
  if (!session) throw acp.RequestError.sessionNotFound(sessionId);
  return session;
}

const app = acp
  .agent({ name: 'tandem-demo' })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    clientCaps = params.clientCapabilities ?? {};
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentInfo: { name: 'tandem-demo', title: 'Tandem Demo', version: VERSION },
      agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
      authMethods: [],
    };
  })
  .onRequest(acp.methods.agent.session.new, ({ params, client }) => {
    const id = `demo-${randomUUID()}`;
    sessions.set(id, { id, cwd: params.cwd, alwaysAllowEdits: false, nextToolId: 0, mode: 'tour' });
    // Like real agents, announce the slash commands once the session exists.
    setTimeout(() => {
      void client.notify(acp.methods.client.session.update, {
        sessionId: id,
        update: { sessionUpdate: 'available_commands_update', availableCommands: demoCommands() },
      });
    }, 0);
    return { sessionId: id, modes: modeState('tour') };
  })
  .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
    const session = sessionOf(params.sessionId);
    const mode = MODES.find((m) => m.id === params.modeId);
    if (!mode) throw acp.RequestError.invalidParams({ modeId: params.modeId }, `Unknown mode ${params.modeId}`);
    session.mode = mode.id;
    await client.notify(acp.methods.client.session.update, { sessionId: session.id, update: { sessionUpdate: 'current_mode_update', currentModeId: mode.id } });
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const session = sessionOf(params.sessionId);
    // One turn at a time per session: a new prompt supersedes a running one, as if it was cancelled.
    session.running?.abort();
    const controller = new AbortController();
    session.running = controller;
    const promptText = promptTextOf(params.prompt);
    const turn = new Turn(client, session, clientCaps, promptText, controller.signal, session.mode === 'fast' ? 0 : delayScale);
    try {
      await runShow(turn, chooseShow(promptText));
      return { stopReason: 'end_turn' };
    } catch (err) {
      // Client requests interrupted by the cancel reject with their own errors: a cancelled turn
      // still answers `cancelled`, never an error (the spec's MUST).
      if (err instanceof Cancelled || controller.signal.aborted) {
        await turn.closeInFlight();
        return { stopReason: 'cancelled' };
      }
      await turn.closeInFlight();
      throw err;
    } finally {
      if (session.running === controller) session.running = undefined;
    }
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.running?.abort();
  });

const connection = app.connect(
  acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
);
// The client closing stdin ends the agent: nothing else keeps a demo alive.
void connection.closed.then(() => process.exit(0));
process.stdin.on('end', () => process.exit(0));
