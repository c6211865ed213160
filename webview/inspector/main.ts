/** The protocol inspector's entry point (bundled to dist/inspector.js as an IIFE). */
// First: the language is set before the modules that render are evaluated.
import '../core/l10n';
import { InspectorApp } from './app';

new InspectorApp(document.getElementById('root') ?? document.body).start();
