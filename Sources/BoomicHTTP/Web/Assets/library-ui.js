// What the library's pages share: covers, album tiles, song tables, and the page's one player.
import { url } from './api.js';
import { h, duration } from './dom.js';

/// A cover from the art store's hash (scaled on the server), or a placeholder.
export function cover(hash, size = 300, alt = '') {
  if (!hash) return h('div', { class: 'cover none', role: 'img', 'aria-label': 'No cover' }, '♪');
  return h('img', { class: 'cover', src: url('cover/' + encodeURIComponent(hash), { size }), alt, loading: 'lazy' });
}

export function albumTile(album) {
  return h('a', { class: 'tile album', href: '#/album/' + encodeURIComponent(album.id), title: `${album.name} — ${album.artist}` },
    cover(album.cover, 300),
    h('div', { class: 'name' }, album.name),
    h('div', { class: 'sub' }, album.artist, album.year ? ` · ${album.year}` : ''));
}

export function albumGrid(albums) {
  return h('div', { class: 'grid' }, albums.map(albumTile));
}

/// A table of songs: track, title (to the song's page), artist, album (unless `album: false`),
/// length, and a play button.
export function songTable(songs, { album = true, track = false } = {}) {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'songs' },
    h('thead', {}, h('tr', {},
      track ? h('th', { class: 'num' }, '#') : null,
      h('th', {}, 'Title'), h('th', {}, 'Artist'), album ? h('th', {}, 'Album') : null,
      h('th', { class: 'num' }, 'Length'), h('th', {}, h('span', { class: 'sr' }, 'Play')))),
    h('tbody', {}, songs.map((s) => h('tr', { 'data-id': s.id, class: s.missing ? 'missing' : null },
      track ? h('td', { class: 'num' }, s.disc && s.disc > 1 ? `${s.disc}-${s.track ?? ''}` : (s.track ?? '')) : null,
      h('td', {}, h('a', { href: '#/song/' + encodeURIComponent(s.id) }, s.title)),
      h('td', {}, s.artist ?? ''),
      album ? h('td', {}, s.albumId ? h('a', { href: '#/album/' + encodeURIComponent(s.albumId) }, s.album ?? '') : (s.album ?? '')) : null,
      h('td', { class: 'num' }, duration(s.duration)),
      h('td', {}, s.missing ? '' : h('button', { type: 'button', class: 'play link', title: `Play ${s.title}`, onclick: () => play(s) }, '▶')))))));
}

// Formats Chromium and Firefox play as they are; any other is asked for as Opus.
const playable = new Set(['flac', 'mp3', 'ogg', 'oga', 'opus', 'wav', 'm4a', 'mp4', 'aac', 'webm']);

/// The address of a song's audio for <audio>.
export function streamURL(song) {
  const format = (song.format ?? '').toLowerCase();
  return url('stream/' + encodeURIComponent(song.id), playable.has(format) ? undefined : { format: 'opus' });
}

/// Plays a song in the page's player, a bar at the foot of every page (made at the first play).
export function play(song) {
  let bar = document.getElementById('player');
  if (!bar) {
    bar = h('footer', { id: 'player', class: 'player' },
      h('div', { class: 'now' }, h('span', { id: 'player-title' }), h('span', { id: 'player-artist', class: 'quiet' })),
      h('audio', { id: 'audio', controls: true, preload: 'auto' }));
    document.body.append(bar);
    document.body.classList.add('playing');
  }
  document.getElementById('player-title').textContent = song.title;
  document.getElementById('player-artist').textContent = song.artist ? ' · ' + song.artist : '';
  const audio = document.getElementById('audio');
  audio.src = streamURL(song);
  audio.play().catch(() => { /* the user presses play: a browser may refuse to start on its own */ });
  return audio;
}
