import * as vscode from 'vscode';
import type { IDisposable } from '../../util/disposable';
import { MaskedLog } from './maskedLog';

/**
 * The "Tandem" log channel (agent stderr, lifecycle, warnings) and the "Tandem Protocol" channel
 * (every JSON-RPC message both ways). Both are LogOutputChannels, which timestamp every line. Every
 * known secret is masked from everything written and teed (see MaskedLog).
 */
export class OutputLog extends MaskedLog implements IDisposable {
  private readonly mainChannel: vscode.LogOutputChannel;
  private readonly protocolChannel: vscode.LogOutputChannel;

  constructor() {
    const main = vscode.window.createOutputChannel('Tandem', { log: true });
    const protocol = vscode.window.createOutputChannel('Tandem Protocol', { log: true });
    super(main, protocol);
    this.mainChannel = main;
    this.protocolChannel = protocol;
  }

  showProtocol(): void {
    this.protocolChannel.show(true);
  }

  dispose(): void {
    this.mainChannel.dispose();
    this.protocolChannel.dispose();
  }
}
