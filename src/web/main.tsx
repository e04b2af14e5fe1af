// The dashboard's entry point: applies the remembered theme and mounts the app.
import { render } from 'preact';
import { App } from './app.js';
import { applyTheme, storedTheme } from './theme.js';

applyTheme(storedTheme());
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
