/**
 * The ACP versions a transcript and a problem report name: the SDK's exact version and the protocol
 * version it speaks. Here, in the inspector's core, so the editor side (src/vscode/inspector/inspector.ts)
 * names them without importing the SDK itself. The SDK's version is read from its package.json by
 * file (its exports map does not list it); the bundler inlines the few fields used.
 */
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import sdkPackage from '../../node_modules/@agentclientprotocol/sdk/package.json';

export const SDK_VERSION: string = sdkPackage.version;

/** The ACP protocol version Tandem speaks (the SDK's). */
export const ACP_PROTOCOL_VERSION: number = PROTOCOL_VERSION;
