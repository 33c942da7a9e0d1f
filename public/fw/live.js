/* global document, location, addEventListener, EventSource */
// Live reload while developing (APP_DEBUG on, APP_ENV=local): the layout adds this module with
// fw_live() next to a <meta name="fw-live"> naming the server that rendered the page. The page
// reloads when the server says a template, public file or stylesheet changed, and when its
// stream reconnects to another server (a restart after a TypeScript change).
const rendered = document.querySelector('meta[name="fw-live"]')?.getAttribute('content') ?? null;
const source = new EventSource('/_fw/live');

source.addEventListener('hello', (event) => {
  const { boot } = JSON.parse(event.data);
  if (rendered !== null && boot !== rendered) location.reload();
});
source.addEventListener('reload', () => location.reload());
// Leaving the page closes the stream at once instead of leaving it to the browser.
addEventListener('pagehide', () => source.close());
