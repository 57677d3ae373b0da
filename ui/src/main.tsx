/** @module The memory viewer's entry point (bundled by scripts/build-ui.mjs into dist/ui/app.js). */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
