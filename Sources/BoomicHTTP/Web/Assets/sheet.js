// A page's own stylesheet (assets/NAME), linked once when the page is first shown.
export function sheet(name) {
  const href = 'assets/' + name;
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href }));
}
