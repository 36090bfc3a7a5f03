// The rooms (Music Hub's screen): every room of the station with its song, its place in it,
// its controls and its queue, live through the server's event stream (api/rooms/events). The
// stream's first event is every room ('state'); then a 'room' event for each room that changed
// (with its queue when the queue did). Between events the place in a playing song moves on by
// the page's own clock; no request is made on a timer.
import { post, session } from './api.js';
import { h, show, duration, failure } from './dom.js';

export default async function render(view) {
  stylesheet();
  const list = h('div', { class: 'rooms', 'aria-live': 'polite' }, h('p', { class: 'quiet' }, 'Connecting…'));
  const note = h('p', { class: 'error', role: 'alert', hidden: true });
  show(view, h('h1', {}, 'Rooms'), note, list);

  const cards = new Map(); // room name → { element, parts, room, at }
  let source = null;
  let closed = false;

  function connect() {
    source = new EventSource('api/rooms/events');
    source.addEventListener('state', (e) => {
      note.hidden = true;
      const rooms = JSON.parse(e.data).rooms;
      for (const name of [...cards.keys()]) if (!rooms.some((r) => r.name === name)) cards.delete(name);
      show(list, rooms.length ? rooms.map((room) => card(room).element) : h('p', { class: 'quiet' }, 'No rooms.'));
    });
    source.addEventListener('room', (e) => {
      const room = JSON.parse(e.data);
      const known = cards.get(room.name);
      if (known) update(known, room);
      else list.append(card(room).element);
    });
    source.addEventListener('error', async () => {
      if (closed || source.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
      // Refused (the session ended, or the server went): ask why, then try again.
      note.hidden = false;
      note.textContent = 'Lost the connection to the server; trying again…';
      try { await fetch('api/session').then((a) => { if (a.status === 401) location.assign('login?expired'); }); } catch {}
      if (!closed) setTimeout(connect, 2000);
    });
  }

  function card(room) {
    const parts = {
      // A song without a picture: the empty square of the style, not a broken image.
      cover: h('img', { class: 'cover', alt: '', width: 96, height: 96, onerror: (e) => e.target.removeAttribute('src') }),
      title: h('div', { class: 'title' }),
      sub: h('div', { class: 'sub quiet' }),
      state: h('span', { class: 'state' }),
      elapsed: h('span', { class: 'time elapsed' }),
      total: h('span', { class: 'time total' }),
      seek: h('input', { type: 'range', class: 'seek', min: 0, max: 1, step: 'any', value: 0, 'aria-label': 'Position' }),
      toggle: h('button', { type: 'button', 'data-action': 'toggle', class: 'toggle' }),
      previous: h('button', { type: 'button', 'data-action': 'previous', class: 'secondary', title: 'Previous song' }, 'Previous'),
      next: h('button', { type: 'button', 'data-action': 'next', class: 'secondary', title: 'Next song' }, 'Next'),
      volume: h('input', { type: 'range', class: 'volume', min: 0, max: 100, step: 1, 'aria-label': 'Volume' }),
      volumeText: h('span', { class: 'quiet volume-text' }),
      message: h('p', { class: 'error message' }),
      queue: h('ol', { class: 'queue' }),
      queueNote: h('p', { class: 'quiet queue-note' }),
    };
    const entry = { parts, room: null, at: 0, dragging: false };
    const name = room.name;
    const act = async (action, body) => {
      parts.message.textContent = '';
      try {
        const after = await post(`rooms/${encodeURIComponent(name)}/${action}`, body);
        if (after) update(entry, after);
      } catch (error) {
        parts.message.textContent = error.message;
      }
    };
    parts.toggle.addEventListener('click', () => act(entry.room?.state === 'play' ? 'pause' : 'play'));
    parts.previous.addEventListener('click', () => act('previous'));
    parts.next.addEventListener('click', () => act('next'));
    parts.seek.addEventListener('input', () => { entry.dragging = true; parts.elapsed.textContent = duration(Number(parts.seek.value)); });
    parts.seek.addEventListener('change', async () => {
      await act('seek', { position: Number(parts.seek.value) });
      entry.dragging = false;
    });
    parts.volume.addEventListener('input', () => { parts.volumeText.textContent = parts.volume.value; });
    parts.volume.addEventListener('change', () => act('volume', { volume: Number(parts.volume.value) }));
    parts.queue.addEventListener('click', (e) => {
      const item = e.target.closest('li[data-entry]');
      if (item) act('play', { entry: Number(item.dataset.entry) });
    });
    entry.element = h('section', { class: 'card room', 'data-room': name },
      h('h2', {}, name, ' ', parts.state),
      h('div', { class: 'now' }, parts.cover,
        h('div', { class: 'facts' }, parts.title, parts.sub,
          h('div', { class: 'progress' }, parts.elapsed, parts.seek, parts.total),
          h('div', { class: 'controls' }, parts.previous, parts.toggle, parts.next,
            h('label', { class: 'volume-label' }, 'Volume', parts.volume, parts.volumeText)))),
      parts.message,
      h('details', { class: 'queue-box', open: true }, h('summary', {}, 'Queue'), parts.queueNote, parts.queue));
    cards.set(name, entry);
    update(entry, room);
    return entry;
  }

  function update(entry, room) {
    const p = entry.parts;
    // A room's event without its queue keeps the queue shown.
    const queue = room.queue ?? entry.room?.queue;
    entry.room = { ...room, queue };
    entry.at = performance.now();
    entry.element.dataset.state = room.state;
    p.state.textContent = room.asleep ? 'asleep' : { play: 'playing', pause: 'paused', stop: 'stopped' }[room.state];
    p.state.className = 'state ' + room.state;
    const song = room.song;
    p.title.textContent = song?.title ?? 'Nothing to play';
    p.sub.textContent = [song?.artist, song?.album].filter(Boolean).join(' — ');
    if (song) {
      if (p.cover.dataset.song !== song.id) {
        p.cover.dataset.song = song.id;
        p.cover.classList.remove('none');
        p.cover.src = song.cover + '?size=192';
      }
    } else {
      p.cover.removeAttribute('src');
      delete p.cover.dataset.song;
    }
    p.toggle.textContent = room.state === 'play' ? 'Pause' : 'Play';
    p.previous.disabled = p.next.disabled = room.state === 'stop';
    p.seek.disabled = room.state === 'stop' || !room.duration;
    p.seek.max = room.duration || 1;
    p.total.textContent = duration(room.duration);
    if (room.volume !== undefined && document.activeElement !== p.volume) {
      p.volume.value = room.volume;
      p.volumeText.textContent = room.volume;
    }
    p.volume.disabled = room.volume === undefined;
    p.message.textContent = room.error ?? '';
    if (room.queue) {
      show(p.queue, room.queue.entries.map((e) => h('li', {
        'data-entry': e.id, value: e.pos + 1, class: e.id === room.entry ? 'current' : null,
        title: 'Play this', tabindex: 0, 'aria-current': e.id === room.entry ? 'true' : null,
      }, h('span', { class: 'q-title' }, e.song.title), h('span', { class: 'quiet' }, e.song.artist ? ' — ' + e.song.artist : ''),
        h('span', { class: 'quiet q-time' }, duration(e.song.duration)))));
      const shown = room.queue.entries.length;
      p.queueNote.textContent = room.queue.length === 0 ? 'The queue is empty.'
        : shown < room.queue.length ? `Entries ${room.queue.start + 1}–${room.queue.start + shown} of ${room.queue.length}.` : '';
    } else {
      for (const li of p.queue.querySelectorAll('li')) {
        const current = Number(li.dataset.entry) === room.entry;
        li.classList.toggle('current', current);
        if (current) li.setAttribute('aria-current', 'true'); else li.removeAttribute('aria-current');
      }
    }
    tick(entry);
  }

  // The place in the song: the last event's, moved on by the time since while playing.
  function tick(entry) {
    const room = entry.room;
    if (!room || entry.dragging) return;
    let at = room.elapsed ?? 0;
    if (room.state === 'play') at += (performance.now() - entry.at) / 1000;
    if (room.duration) at = Math.min(at, room.duration);
    entry.parts.elapsed.textContent = room.state === 'stop' ? '' : duration(at);
    entry.parts.seek.value = at;
  }
  const clock = setInterval(() => { for (const entry of cards.values()) if (entry.room?.state === 'play') tick(entry); }, 250);

  try {
    await session();
  } catch (error) {
    show(list, failure(error));
  }
  connect();
  return () => {
    closed = true;
    clearInterval(clock);
    source?.close();
  };
}

// The rooms' own styles, beside the shell's.
function stylesheet() {
  if (document.querySelector('link[data-rooms]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: 'assets/rooms.css', 'data-rooms': true }));
}
