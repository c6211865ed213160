/**
 * The ACP SDK's exact version, for transcripts and problem reports. Read from its package.json by
 * file (its exports map does not list it); the bundler inlines the few fields used.
 */
import sdkPackage from '../../node_modules/@agentclientprotocol/sdk/package.json';

export const SDK_VERSION: string = sdkPackage.version;
