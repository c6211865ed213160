/** Webview entry point (bundled to dist/webview.js as an IIFE). */
// First: the language is set before the modules that render are evaluated.
import '../core/l10n';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import { App } from './app';

const container = document.getElementById('root') ?? document.body;
const app = new App(container);
app.start();
