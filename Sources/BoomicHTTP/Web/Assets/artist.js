// An artist: their albums, by year.
import { get } from './api.js';
import { h, show } from './dom.js';
import { albumGrid } from './library-ui.js';

export default async function render(view, params) {
  const { artist, albums } = await get('artists/' + encodeURIComponent(params.id));
  document.title = `${artist.name} — Boomic`;
  show(view,
    h('h1', {}, artist.name),
    h('p', { class: 'quiet' }, `${artist.albumCount} ${artist.albumCount === 1 ? 'album' : 'albums'} · ${artist.songCount} songs`),
    albumGrid(albums));
}
