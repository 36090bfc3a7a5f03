// The page's shell: the navigation and a router over the address's hash (#/album/al-1).
// Each page is a module of its own whose default export renders into the view it is given:
//   export default async function render(view, params) { … return cleanup? }
// `params` holds the path's :parts and the hash's ?query; a returned function is called when the
// user leaves the page (to close an EventSource, stop a timer).
import { session, logout } from './api.js';
import { h, show, failure } from './dom.js';

// The pages: one line each. `path` is matched against the hash after '#/'; `nav` puts the page in
// the header; `under` names the header's page it belongs to. The first page with `nav` is the
// home page.
const pages = [
  { path: 'library', nav: 'Library', load: () => import('./library.js') },
  { path: 'album/:id', under: 'library', load: () => import('./album.js') },
  { path: 'artist/:id', under: 'library', load: () => import('./artist.js') },
  { path: 'song/:id', under: 'library', load: () => import('./song.js') },
  { path: 'history', nav: 'History', load: () => import('./history.js') },
  { path: 'taglists', nav: 'Taglists', load: () => import('./taglists.js') },
  { path: 'rooms', nav: 'Rooms', load: () => import('./rooms.js') },
];

let leave = null;

function match(hash) {
  const [path, search] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const query = Object.fromEntries(new URLSearchParams(search ?? ''));
  if (parts.length === 0) return { page: home(), params: query };
  for (const page of pages) {
    const pattern = page.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params = { ...query };
    if (pattern.every((p, i) => (p.startsWith(':') ? ((params[p.slice(1)] = parts[i]), true) : p === parts[i]))) {
      return { page, params };
    }
  }
  return null;
}

function home() {
  return pages.find((p) => p.nav);
}

async function route() {
  if (typeof leave === 'function') {
    try { leave(); } catch (e) { console.error(e); }
  }
  leave = null;
  const main = document.getElementById('main');
  // A new view per visit: a page still loading for the last address writes into a view that
  // is no longer shown.
  const view = h('div', { class: 'view' });
  document.title = 'Boomic';
  show(main, view);
  const found = match(location.hash);
  for (const a of document.querySelectorAll('#nav a')) {
    a.classList.toggle('current', (found?.page.under ?? found?.page.path.split('/')[0]) === a.dataset.page);
  }
  if (!found) {
    show(view, h('h1', {}, 'Not found'), h('p', {}, 'No page at this address. ', h('a', { href: '#/' }, 'Home')));
    return;
  }
  try {
    const module = await found.page.load();
    leave = await module.default(view, found.params);
  } catch (error) {
    view.append(failure(error));
  }
}

async function start() {
  show(document.getElementById('nav'),
    pages.filter((p) => p.nav).map((p) => h('a', { href: '#/' + p.path, 'data-page': p.path }, p.nav)));
  document.getElementById('logout').addEventListener('click', logout);
  window.addEventListener('hashchange', route);
  try {
    const me = await session();
    document.getElementById('user').textContent = me.user;
  } catch (error) {
    show(document.getElementById('main'), failure(error));
    return;
  }
  await route();
}

start();
