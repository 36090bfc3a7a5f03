// Building the page's elements without HTML strings: text is always text (never markup), so
// a song's title cannot inject anything.

/// h('a', { href: '#/x', class: 'y' }, 'text', child…): an element with attributes, event
/// handlers (`onclick: f`) and children (strings, numbers, elements, arrays; null skipped).
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/// Replaces an element's content.
export function show(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/// 3:07, 1:02:03 from seconds.
export function duration(seconds) {
  if (seconds === undefined || seconds === null) return '';
  const s = Math.round(seconds);
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const text = hms[0] ? `${hms[0]}:${String(hms[1]).padStart(2, '0')}` : String(hms[1]);
  return `${text}:${String(hms[2]).padStart(2, '0')}`;
}

/// A time (seconds since 1970) in the reader's locale.
export function when(seconds) {
  if (!seconds) return '';
  return new Date(seconds * 1000).toLocaleString();
}

/// An error as the page shows it: one line in the error style.
export function failure(error) {
  return h('p', { class: 'error', role: 'alert' }, error?.message ?? String(error));
}

/// Calls `f` once the user stops typing for `ms`.
export function debounce(f, ms = 150) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  };
}
