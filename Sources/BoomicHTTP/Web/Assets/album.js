// An album: its cover, artist, year, length, and its songs in disc order.
import { get } from './api.js';
import { h, show, duration } from './dom.js';
import { cover, songTable, play } from './library-ui.js';

export default async function render(view, params) {
  const { album, songs } = await get('albums/' + encodeURIComponent(params.id));
  document.title = `${album.name} — Boomic`;
  const length = songs.reduce((sum, s) => sum + (s.duration ?? 0), 0);
  show(view,
    h('div', { class: 'head' },
      cover(album.cover, 600, `Cover of ${album.name}`),
      h('div', { class: 'facts' },
        h('h1', {}, album.name),
        h('p', {}, h('a', { href: '#/artist/' + encodeURIComponent(album.artistId) }, album.artist)),
        h('p', { class: 'quiet' }, [album.year, album.genre, `${songs.length} ${songs.length === 1 ? 'song' : 'songs'}`, duration(length)]
          .filter(Boolean).join(' · ')),
        songs.some((s) => !s.missing) ? h('button', { type: 'button', id: 'play-album', onclick: () => play(songs.find((s) => !s.missing)) }, '▶ Play') : null)),
    songTable(songs, { album: false, track: true }));
}
