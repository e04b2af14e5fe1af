// The hub web app's entry point: the dashboard's look and theme, the hub's app.
import { render } from 'preact';
import '../styles.css';
import './hub.css';
import { applyTheme, storedTheme } from '../theme.js';
import { HubApp } from './hub-app.js';

applyTheme(storedTheme());
const root = document.getElementById('app');
if (root !== null) render(<HubApp />, root);
