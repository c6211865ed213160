/** Webview entry point (bundled to dist/webview.js as an IIFE). */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import { App } from './app';

const container = document.getElementById('root') ?? document.body;
const app = new App(container);
app.start();
