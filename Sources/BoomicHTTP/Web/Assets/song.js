// A song: every field it has, each with its blame (the transaction that set the value it holds
// now: what, by whom, when), and a player.
import { get } from './api.js';
import { h, show, when, duration } from './dom.js';
import { cover, play } from './library-ui.js';

const groups = [['tag', 'Tags'], ['user', 'Your fields'], ['library', 'Library'], ['file', 'File']];

export default async function render(view, params) {
  const { song, fields } = await get('songs/' + encodeURIComponent(params.id));
  document.title = `${song.title} — Boomic`;
  show(view,
    h('div', { class: 'head' },
      cover(song.cover, 600, song.album ? `Cover of ${song.album}` : ''),
      h('div', { class: 'facts' },
        h('h1', {}, song.title),
        h('p', {}, song.artist ?? '', song.album ? [' · ', song.albumId ? h('a', { href: '#/album/' + encodeURIComponent(song.albumId) }, song.album) : song.album] : null),
        h('p', { class: 'quiet' }, [song.year, song.format, duration(song.duration)].filter(Boolean).join(' · ')),
        song.missing ? h('p', { class: 'error' }, 'The file was missing at the last scan.')
          : h('button', { type: 'button', id: 'play-song', onclick: () => play(song) }, '▶ Play'))),
    groups.map(([group, title]) => {
      const rows = fields.filter((f) => f.group === group);
      return rows.length ? [h('h2', {}, title), fieldTable(rows)] : null;
    }));
}

function fieldTable(rows) {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'fields' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Value'), h('th', {}, 'Set by'))),
    h('tbody', {}, rows.map((f) => h('tr', { 'data-field': f.field },
      h('th', { scope: 'row' }, f.field),
      h('td', { class: 'value' }, f.kind === 'date' && typeof f.value === 'number' ? when(f.value) : f.shown),
      h('td', { class: 'blame' }, f.blame ? blame(f.blame) : h('span', { class: 'quiet' }, '—')))))));
}

function blame(b) {
  const who = [b.user ? `by ${b.user}` : null, b.client ? `via ${b.client}` : null].filter(Boolean).join(' ');
  return [
    h('a', { href: '#/history?seq=' + b.seq, title: b.transaction }, `#${b.seq}`), ' ',
    h('span', { class: 'label' }, b.label), ' ',
    h('span', { class: 'quiet' }, [who, when(b.time)].filter(Boolean).join(' · ')),
  ];
}
