// The dashboard's entry point: applies the remembered theme, asks for the first sessions and mounts the app.
import { render } from 'preact';
// The page's one stylesheet, uPlot's rules first (a lazy chunk's CSS would not be linked) so ours
// override them as they did when the chart imported its own.
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app.js';
import { applyTheme, storedTheme } from './theme.js';
import { requestFirstPage } from './use-sessions.js';

applyTheme(storedTheme());
const mount = (): void => {
  const root = document.getElementById('app');
  if (root !== null) render(<App />, root);
};
// The first render waits briefly for the first page of sessions (preloaded with the HTML, so it is
// usually in already): the page is then laid out and painted once, with rows, rather than first as
// a skeleton. A slow server gets the skeleton after `waitMs`.
const waitMs = 100;
void Promise.race([requestFirstPage(), new Promise((r) => setTimeout(r, waitMs))]).then(mount);
