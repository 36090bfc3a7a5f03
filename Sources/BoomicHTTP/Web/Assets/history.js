// The history: every change to the library, newest first, the next page loaded as the list's
// end scrolls into view. A click on a change opens its diff (song, field, before → after) and
// two ways back: "Take back this change" (revert) and "Go back to here" (rollback); "Undo the
// last change" sits above the list. Each first shows its preview (what boomic's --dry-run
// shows) and commits only on confirm, as one transaction that boomic undo takes back.
import { get, post } from './api.js';
import { h, show, failure, when } from './dom.js';
import { sheet } from './sheet.js';

export default async function render(view, params) {
  sheet('timeline.css');
  const list = h('ol', { class: 'timeline', id: 'timeline' });
  const more = h('p', { class: 'quiet', id: 'more' }, 'Loading…');
  const top = h('div', { id: 'top' });
  // What the last way back did: above the list, which reloads after it.
  const said = h('p', { id: 'said', role: 'status' });
  const plays = h('input', { type: 'checkbox', id: 'plays', checked: params.plays === '1' });
  let next = null;
  let loading = false;
  let generation = 0;

  async function load(reset) {
    if (loading && !reset) return;
    const mine = reset ? ++generation : generation;
    loading = true;
    try {
      const page = await get('history', { before: reset ? undefined : next, limit: 50, plays: plays.checked ? 1 : undefined });
      if (mine !== generation) return;
      if (reset) list.replaceChildren();
      for (const item of page.items) list.append(row(item));
      next = page.next;
      show(more, next ? 'Scroll for older changes…' : list.children.length ? 'The first change.' : 'No changes yet.');
    } catch (error) {
      show(more, failure(error));
    } finally {
      if (mine === generation) loading = false;
    }
    // A tall window may show the end of a short page: keep loading until it scrolls.
    if (next && more.getBoundingClientRect().top < window.innerHeight) load(false);
  }

  function refresh() {
    next = null;
    loading = false;
    load(true);
  }

  function row(item) {
    const li = h('li', { class: 'tx', 'data-seq': item.seq, 'data-kind': item.kind });
    const detail = h('div', { class: 'detail', hidden: true });
    const by = [item.user && `by ${item.user}`, item.client && `via ${item.client}`].filter(Boolean).join(' ');
    const counts = [
      item.songs && `${item.songs} song${item.songs === 1 ? '' : 's'}`,
      item.fields && `${item.fields} field${item.fields === 1 ? '' : 's'}`,
      item.others && `${item.others} other${item.others === 1 ? '' : 's'}`,
    ].filter(Boolean).join(' · ');
    const open = h('button', { type: 'button', class: 'open', 'aria-expanded': 'false' },
      h('span', { class: 'seq' }, item.seq),
      h('span', { class: 'kind' }, item.kind),
      h('span', { class: 'label' }, item.label),
      h('span', { class: 'time' }, when(item.time)),
      h('span', { class: 'meta' },
        by && h('span', { class: 'by' }, by),
        counts && h('span', { class: 'counts' }, counts),
        item.message && h('span', { class: 'by' }, '“' + item.message + '”')));
    open.addEventListener('click', async () => {
      const opening = detail.hidden;
      detail.hidden = !opening;
      open.setAttribute('aria-expanded', String(opening));
      if (opening && !detail.dataset.loaded) {
        detail.dataset.loaded = '1';
        show(detail, h('p', { class: 'quiet' }, 'Loading…'));
        try {
          showDetail(detail, item, await get('history/' + item.seq));
        } catch (error) {
          show(detail, failure(error));
          delete detail.dataset.loaded;
        }
      }
    });
    li.append(open, detail);
    return li;
  }

  function showDetail(detail, item, t) {
    const place = h('div', { class: 'preview-place' });
    const facts = [
      t.command && h('div', {}, h('span', { class: 'quiet' }, 'command: '), h('code', {}, t.command)),
      t.message && h('div', {}, h('span', { class: 'quiet' }, 'message: '), t.message),
      h('div', { class: 'quiet' }, `id ${t.id}`, t.version ? ` · Boomic ${t.version}` : ''),
    ];
    show(detail, facts, diff(t.changes, t.more),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'revert', onclick: () => ask(place, 'history/' + item.seq + '/revert') },
          'Take back this change'),
        h('button', { type: 'button', class: 'rollback secondary', onclick: () => ask(place, 'history/' + item.seq + '/rollback') },
          'Go back to here')),
      place);
  }

  // The preview of a way back in `place`, with Confirm and Cancel; Confirm commits what the
  // preview showed (its head goes along: a library that moved meanwhile is refused).
  async function ask(place, path) {
    show(said);
    show(place, h('p', { class: 'quiet' }, 'Working out the change…'));
    let preview;
    try {
      preview = await get(path);
    } catch (error) {
      show(place, failure(error));
      return;
    }
    const panel = h('div', { class: 'preview', role: 'dialog', 'aria-label': preview.label, 'data-action': preview.action });
    const status = h('p', { class: 'status', role: 'status' });
    const conflicts = preview.conflicts.length
      ? h('ul', { class: 'conflicts' }, preview.conflicts.map((c) => h('li', {}, c))) : null;
    if (preview.nothing) {
      show(panel, h('h3', {}, preview.label), h('p', { class: 'nothing' }, preview.nothing), conflicts,
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'cancel secondary', onclick: () => show(place) }, 'Close')));
      show(place, panel);
      return;
    }
    const confirm = h('button', { type: 'button', class: 'confirm' }, 'Confirm');
    const cancel = h('button', { type: 'button', class: 'cancel secondary', onclick: () => show(place) }, 'Cancel');
    confirm.addEventListener('click', async () => {
      confirm.disabled = cancel.disabled = true;
      show(status, 'Committing…');
      try {
        const done = await post(path, { head: preview.head });
        show(place);
        show(said, h('span', { class: 'done' }, `Done: ${done.label} (transaction ${done.committed}). Undo takes it back.`));
        refresh();
      } catch (error) {
        show(status, failure(error));
        confirm.disabled = cancel.disabled = false;
      }
    });
    show(panel, h('h3', {}, preview.label),
      h('p', { class: 'summary' }, `This would change ${preview.summary}:`), conflicts,
      diff(preview.changes, preview.more),
      h('div', { class: 'actions' }, confirm, cancel), status);
    show(place, panel);
    confirm.focus();
  }

  const undo = h('button', { type: 'button', id: 'undo', class: 'secondary', onclick: () => ask(top, 'undo') }, 'Undo the last change');
  plays.addEventListener('change', refresh);
  show(view, h('h1', {}, 'History'),
    h('div', { class: 'toolbar' }, undo, h('label', {}, plays, ' Show plays'),
      h('button', { type: 'button', class: 'link', id: 'reload', onclick: refresh }, 'Reload')),
    said, top, list, more);

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting) && next) load(false);
  });
  observer.observe(more);
  await load(true);
  return () => observer.disconnect();
}

// A diff as a table: the song (or list), the field, before → after.
function diff(changes, more) {
  if (!changes.length && !more) return h('p', { class: 'quiet' }, 'No change to a song, list or field.');
  const sign = { add: '+', delete: '−', update: '~' };
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'diff' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Song'), h('th', {}, 'Field'), h('th', {}, 'Before'), h('th', {}, 'After'))),
      h('tbody', {}, changes.map((c) => h('tr', { 'data-op': c.op },
        h('td', {}, sign[c.op] ?? ''), h('td', { class: 'entity' }, c.entity), h('td', { class: 'field' }, c.field ?? ''),
        h('td', { class: 'before' }, c.before ?? '∅'), h('td', { class: 'after' }, c.after ?? '∅'))))),
    more ? h('p', { class: 'quiet' }, `… and ${more} more`) : null);
}
