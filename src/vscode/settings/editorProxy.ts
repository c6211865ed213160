import * as vscode from 'vscode';
import { agentProxy } from '../../util/agentProxy';
import type { EditorProxySettings } from '../../util/agentProxy';

/**
 * The editor's proxy settings (`http.proxy`, `http.noProxy`, `http.proxyStrictSSL`), read when an
 * agent is launched, so a changed setting applies to the next spawn without a reload.
 */
export function editorProxySettings(): EditorProxySettings {
  const http = vscode.workspace.getConfiguration('http');
  const noProxy = http.get<unknown>('noProxy');
  return {
    proxy: http.get<string>('proxy')?.trim() || undefined,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((h): h is string => typeof h === 'string') : [],
    strictSSL: http.get<boolean>('proxyStrictSSL') !== false,
  };
}

/** The credentials of the editor's (and the environment's) proxy: masked in every log, whichever agent prints them. */
export function editorProxySecrets(): string[] {
  return agentProxy(editorProxySettings(), { entryEnv: {} }).secrets;
}

/** The settings the proxy comes from changed. */
export function affectsProxy(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('http.proxy') || e.affectsConfiguration('http.noProxy') || e.affectsConfiguration('http.proxyStrictSSL');
}
