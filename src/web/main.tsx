// The dashboard's entry point: applies the remembered theme and mounts the app.
import { render } from 'preact';
// uPlot's styles go in the page's first stylesheet: a lazy chunk's CSS would not be linked.
import 'uplot/dist/uPlot.min.css';
import { App } from './app.js';
import { applyTheme, storedTheme } from './theme.js';
import { requestFirstPage } from './use-sessions.js';

requestFirstPage();
applyTheme(storedTheme());
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
