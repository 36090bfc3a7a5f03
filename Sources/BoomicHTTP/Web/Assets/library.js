// The library: albums with covers (in an order, a page at a time), artists, and search as
// the user types (the catalog's search: every word starts a word of a name).
import { get } from './api.js';
import { h, show, failure, debounce } from './dom.js';
import { albumGrid, songTable } from './library-ui.js';

const orders = [
  ['alphabeticalByArtist', 'By artist'], ['alphabeticalByName', 'By title'], ['newest', 'Newest'],
  ['recent', 'Recently played'], ['frequent', 'Most played'], ['random', 'Random'],
];
const pageSize = 60;

export default async function render(view, params) {
  const tab = params.tab === 'artists' ? 'artists' : 'albums';
  const search = h('input', { type: 'search', id: 'search', placeholder: 'Search artists, albums, songs', 'aria-label': 'Search',
    value: params.q ?? '', autocomplete: 'off' });
  const body = h('div', { id: 'library-body' });
  show(view,
    h('div', { class: 'toolbar' }, h('h1', {}, 'Library'), search),
    h('nav', { class: 'tabs' },
      h('a', { href: '#/library', class: tab === 'albums' ? 'current' : null }, 'Albums'),
      h('a', { href: '#/library?tab=artists', class: tab === 'artists' ? 'current' : null }, 'Artists')),
    body);

  let asked = 0;
  const find = async (q) => {
    const mine = ++asked;
    history.replaceState(null, '', '#/library' + (q ? '?q=' + encodeURIComponent(q) : tab === 'artists' ? '?tab=artists' : ''));
    if (!q.trim()) return tab === 'artists' ? artists(body) : albums(body);
    try {
      const found = await get('search', { q });
      if (mine !== asked) return; // a later keystroke's answer is on its way
      show(body, results(found));
    } catch (error) {
      show(body, failure(error));
    }
  };
  search.addEventListener('input', debounce(() => find(search.value)));
  await find(search.value);
  search.focus();
}

function results(found) {
  const none = !found.artists.length && !found.albums.length && !found.songs.length;
  return h('div', { class: 'results', 'data-query': found.query },
    none ? h('p', { class: 'quiet' }, `Nothing matches “${found.query}”.`) : null,
    found.artists.length ? [h('h2', {}, 'Artists'), artistList(found.artists)] : null,
    found.albums.length ? [h('h2', {}, 'Albums'), albumGrid(found.albums)] : null,
    found.songs.length ? [h('h2', {}, 'Songs'), songTable(found.songs)] : null);
}

async function albums(body) {
  let order = sessionStorage.getItem('boomic.albumOrder') ?? 'alphabeticalByArtist';
  const select = h('select', { 'aria-label': 'Order' }, orders.map(([v, label]) => h('option', { value: v, selected: v === order }, label)));
  const grid = h('div', { class: 'grid', id: 'albums' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'More');
  const count = h('span', { class: 'quiet' });
  show(body, h('div', { class: 'toolbar' }, select, count), grid, h('p', {}, more));
  let offset = 0;
  const load = async () => {
    more.disabled = true;
    try {
      const page = await get('albums', { order, offset, size: pageSize });
      grid.append(...albumGrid(page.albums).children);
      offset += page.albums.length;
      count.textContent = `${page.total} albums`;
      more.hidden = offset >= page.total || page.albums.length === 0;
    } catch (error) {
      body.append(failure(error));
    } finally {
      more.disabled = false;
    }
  };
  select.addEventListener('change', () => {
    order = select.value;
    sessionStorage.setItem('boomic.albumOrder', order);
    grid.replaceChildren();
    offset = 0;
    load();
  });
  more.addEventListener('click', load);
  await load();
}

async function artists(body) {
  try {
    const list = await get('artists');
    show(body, h('p', { class: 'quiet' }, `${list.artists.length} artists`), artistList(list.artists));
  } catch (error) {
    show(body, failure(error));
  }
}

export function artistList(artists) {
  return h('ul', { class: 'list artists' }, artists.map((a) => h('li', {},
    h('a', { href: '#/artist/' + encodeURIComponent(a.id) }, a.name),
    h('span', { class: 'quiet' }, ` · ${a.albumCount} ${a.albumCount === 1 ? 'album' : 'albums'}`))));
}
