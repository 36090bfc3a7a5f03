// The taglists: each with its clauses and song count. Editing one shows, as you type, how many
// songs the clauses hold and which songs they gain or lose against the saved ones (or the
// parser's one line when a clause does not read); Save commits one transaction that boomic
// undo takes back. New and Delete too. The clause language is Documentation/taglists.md's:
// one clause a line, a sign (+, - or ^) and rules separated by commas.
import { get, post, put, del } from './api.js';
import { h, show, failure, debounce } from './dom.js';
import { sheet } from './sheet.js';

export default async function render(view) {
  sheet('timeline.css');
  const list = h('ul', { class: 'taglists', id: 'taglists' });
  const status = h('p', { class: 'status', role: 'status' });
  const creator = h('div', { id: 'creator' });

  async function load() {
    try {
      const { taglists } = await get('taglists');
      show(list, taglists.length ? taglists.map(item) : h('li', { class: 'quiet' }, 'No taglists yet.'));
    } catch (error) {
      show(list, failure(error));
    }
  }

  function item(t) {
    const li = h('li', { class: 'taglist card', 'data-id': t.id, 'data-name': t.name });
    const place = h('div', { class: 'place' });
    show(li,
      h('div', { class: 'toolbar' },
        h('strong', { class: 'name' }, t.name),
        h('span', { class: 'songs quiet' }, `${t.songs} song${t.songs === 1 ? '' : 's'}`),
        h('button', { type: 'button', class: 'edit secondary', onclick: () => editor(place, t) }, 'Edit'),
        h('button', { type: 'button', class: 'delete secondary danger', onclick: () => remove(t) }, 'Delete')),
      h('div', { class: 'rules' }, t.clauses.length ? t.clauses.join('  ') : '(no clauses: every song)'),
      place);
    return li;
  }

  // The editor of `t` (or of a new taglist when `t` is null) in `place`.
  function editor(place, t) {
    const name = h('input', { type: 'text', class: 'name-input', value: t?.name ?? '', 'aria-label': 'Name', placeholder: 'name' });
    const clauses = h('textarea', { class: 'clauses', 'aria-label': 'Clauses, one per line', spellcheck: 'false' });
    clauses.value = (t?.clauses ?? []).join('\n');
    const live = h('div', { class: 'live', 'aria-live': 'polite' });
    const save = h('button', { type: 'button', class: 'save' }, t ? 'Save' : 'Create');
    const cancel = h('button', { type: 'button', class: 'cancel secondary', onclick: () => show(place) }, 'Cancel');
    const result = h('p', { class: 'result', role: 'status' });
    let asked = 0;

    const lines = () => clauses.value.split('\n').map((l) => l.trim()).filter(Boolean);
    async function count() {
      const mine = ++asked;
      const query = new URLSearchParams();
      for (const c of lines()) query.append('clause', c);
      if (t) query.append('id', t.id);
      try {
        const n = await get('taglists/count?' + query.toString());
        if (mine !== asked) return;
        save.disabled = false;
        show(live, h('span', { class: 'count' }, `${n.songs} song${n.songs === 1 ? '' : 's'}`),
          t ? moved('gained', 'gains', n.gained) : null, t ? moved('lost', 'loses', n.lost) : null);
      } catch (error) {
        if (mine !== asked) return;
        save.disabled = true;
        show(live, h('p', { class: 'error' }, error.message));
      }
    }
    const later = debounce(count, 200);
    clauses.addEventListener('input', later);

    save.addEventListener('click', async () => {
      save.disabled = true;
      show(result, 'Saving…');
      try {
        const body = { name: name.value.trim(), clauses: lines() };
        const done = t ? await put('taglists/' + t.id, body) : await post('taglists', body);
        show(result);
        show(status, h('span', { class: 'saved' }, done.committed
          ? `Saved ${done.name}: ${done.songs} songs (transaction ${done.committed}). Undo takes it back.`
          : `${done.name} already reads so: nothing changed.`));
        if (!t) show(creator);
        await load();
      } catch (error) {
        show(result, failure(error));
        save.disabled = false;
      }
    });

    show(place, h('div', { class: 'editor card' },
      h('label', {}, 'Name', name),
      h('label', {}, 'Clauses, one per line (+ keeps songs that match; - leaves out songs matching every - clause)', clauses),
      live, h('div', { class: 'actions' }, save, cancel), result));
    count();
    clauses.focus();
  }

  function moved(cls, verb, m) {
    if (!m.count) return h('div', { class: cls + ' quiet' }, `${verb} no song`);
    return h('div', { class: cls },
      h('span', {}, `${verb} ${m.count}`),
      h('ul', {}, m.songs.map((s) => h('li', {}, s))),
      m.count > m.songs.length ? h('span', { class: 'quiet' }, `… and ${m.count - m.songs.length} more`) : null);
  }

  async function remove(t) {
    if (!window.confirm(`Delete the taglist ${t.name}? Its songs stay; undo brings it back.`)) return;
    try {
      const done = await del('taglists/' + t.id);
      show(status, h('span', { class: 'saved' }, `Deleted ${t.name} (transaction ${done.committed}). Undo brings it back.`));
      await load();
    } catch (error) {
      show(status, failure(error));
    }
  }

  show(view, h('h1', {}, 'Taglists'),
    h('div', { class: 'toolbar' }, h('button', { type: 'button', id: 'new', onclick: () => editor(creator, null) }, 'New taglist')),
    creator, status, list);
  await load();
}
