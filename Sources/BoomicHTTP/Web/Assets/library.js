// The library: albums with covers, artists, search as you type.
import { session } from './api.js';
import { h, show } from './dom.js';

export default async function render(view) {
  const me = await session();
  show(view, h('h1', {}, 'Library'), h('p', { class: 'quiet' }, `Logged in as ${me.user}. Boomic ${me.version}.`));
}
