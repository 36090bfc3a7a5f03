// The page of a part not built yet.
import { h, show } from './dom.js';

export default function render(view) {
  show(view, h('p', { class: 'quiet' }, 'This page is not built yet.'));
}
