/* global document, navigator, location, history, HTMLDialogElement, CustomEvent */
// The UI kit's controls (templates/fw/ui/controls.html and details.html), made better by
// script; each works without it. Tabs: ARIA tabs with arrow keys, Home and End. Menus
// (<details>): Escape closes and returns focus to the button, a click outside or focus leaving
// closes, arrow keys move between items, one open at a time. Buttons with data-fw-key are
// pressed by their keyboard shortcut. [data-fw-open] opens a dialog or sheet by id;
// [data-fw-copy] copies to the clipboard. Content swapped in by htmx is set up on htmx:load.

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

function setUp(root) {
  for (const box of root.querySelectorAll('[data-fw-tabs]:not([data-fw-tabs-ready])')) setUpTabs(box);
  if (navigator.clipboard) for (const button of root.querySelectorAll('.fw-copy[hidden]')) button.hidden = false;
}

// Tabs

function tabsOf(box) {
  const list = box.querySelector(':scope > .fw-tabs-list');
  return list ? [...list.querySelectorAll('[data-fw-tab]')] : [];
}

function setUpTabs(box) {
  const tabs = tabsOf(box);
  const panels = tabs.map((tab) => document.getElementById(tab.dataset.fwTab));
  if (tabs.length === 0 || panels.some((panel) => !panel)) return;
  const list = tabs[0].closest('.fw-tabs-list');
  list.setAttribute('role', 'tablist');
  for (const item of list.children) item.setAttribute('role', 'presentation');
  tabs.forEach((tab, index) => {
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', panels[index].id);
    panels[index].setAttribute('role', 'tabpanel');
    panels[index].tabIndex = 0;
  });
  const linked = tabs.find((tab) => `#${tab.dataset.fwTab}` === location.hash);
  choose(box, linked ?? tabs.find((tab) => tab.hasAttribute('data-fw-selected')) ?? tabs[0], false);
  box.setAttribute('data-fw-tabs-ready', '');
}

function choose(box, chosen, focus) {
  for (const tab of tabsOf(box)) {
    const on = tab === chosen;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    const panel = document.getElementById(tab.dataset.fwTab);
    if (panel) panel.hidden = !on;
  }
  if (focus) chosen.focus();
}

function onTabKey(event, tab) {
  const box = tab.closest('[data-fw-tabs]');
  const tabs = tabsOf(box);
  const index = tabs.indexOf(tab);
  const next = {
    ArrowRight: tabs[(index + 1) % tabs.length],
    ArrowLeft: tabs[(index - 1 + tabs.length) % tabs.length],
    Home: tabs[0],
    End: tabs[tabs.length - 1],
    ' ': tab,
  }[event.key];
  if (!next) return;
  event.preventDefault();
  choose(box, next, true);
}

// Menus

function close(menu, focusButton) {
  menu.open = false;
  if (focusButton) menu.querySelector(':scope > summary').focus();
}

function itemsOf(menu) {
  return [...menu.querySelectorAll('.fw-menu-item')].filter((item) => !item.disabled);
}

function onMenuKey(event, menu) {
  const items = itemsOf(menu);
  const index = items.indexOf(document.activeElement);
  let next;
  if (event.key === 'Escape' && menu.open) {
    event.preventDefault();
    close(menu, true);
    return;
  }
  if (event.key === 'ArrowDown') next = items[index === -1 ? 0 : (index + 1) % items.length];
  else if (event.key === 'ArrowUp') next = items[index <= 0 ? items.length - 1 : index - 1];
  else if (event.key === 'Home' && index !== -1) next = items[0];
  else if (event.key === 'End' && index !== -1) next = items[items.length - 1];
  if (!next) return;
  event.preventDefault();
  menu.open = true;
  next.focus();
}

// Keyboard shortcuts: 'ctrl+s', 'shift+n', '?'

function pressed(event) {
  const key = event.key.toLowerCase();
  const parts = [];
  if (event.ctrlKey) parts.push('ctrl');
  if (event.altKey) parts.push('alt');
  if (event.metaKey) parts.push('meta');
  if (event.shiftKey && /^[a-z0-9]$|^[a-z]{2,}/.test(key)) parts.push('shift');
  return [...parts, key].join('+');
}

function normalised(shortcut) {
  const names = { control: 'ctrl', cmd: 'meta', command: 'meta', mod: 'ctrl', option: 'alt' };
  const parts = shortcut.toLowerCase().split('+').map((part) => names[part] ?? part);
  const key = parts.pop();
  const order = ['ctrl', 'alt', 'meta', 'shift'];
  return [...order.filter((name) => parts.includes(name)), key].join('+');
}

function onShortcut(event) {
  if (event.defaultPrevented || event.isComposing || event.repeat) return;
  const modified = event.ctrlKey || event.altKey || event.metaKey;
  if (!modified && event.target.closest?.(EDITABLE)) return;
  const combo = pressed(event);
  const button = [...document.querySelectorAll('[data-fw-key]')].find(
    (candidate) => normalised(candidate.dataset.fwKey) === combo && !candidate.disabled && candidate.checkVisibility?.() !== false,
  );
  if (!button) return;
  event.preventDefault();
  button.click();
}

// Wiring

document.addEventListener('keydown', (event) => {
  const tab = event.target.closest?.('[role="tab"]');
  if (tab) return onTabKey(event, tab);
  const menu = event.target.closest?.('[data-fw-menu]');
  if (menu) return onMenuKey(event, menu);
  if (event.key === 'Escape') for (const open of document.querySelectorAll('[data-fw-menu][open]')) close(open, false);
  onShortcut(event);
});

document.addEventListener('click', (event) => {
  const target = event.target;
  for (const open of document.querySelectorAll('[data-fw-menu][open]')) if (!open.contains(target)) close(open, false);

  const tab = target.closest('[role="tab"]');
  if (tab) {
    event.preventDefault();
    choose(tab.closest('[data-fw-tabs]'), tab, true);
    history.replaceState(history.state, '', `#${tab.dataset.fwTab}`);
    return;
  }

  const opener = target.closest('[data-fw-open]');
  const dialog = opener && document.getElementById(opener.dataset.fwOpen);
  if (dialog) {
    event.preventDefault();
    // Focus goes back to the menu's button first, so closing the dialog returns focus there.
    const menu = opener.closest('[data-fw-menu]');
    if (menu) close(menu, true);
    if (dialog instanceof HTMLDialogElement) dialog.showModal();
    else dialog.dispatchEvent(new CustomEvent('fw:open', { bubbles: true, detail: { opener } }));
    return;
  }

  const copy = target.closest('[data-fw-copy]');
  if (copy) {
    const status = copy.parentElement.querySelector('[data-fw-copy-status]');
    navigator.clipboard.writeText(copy.dataset.fwCopy).then(
      () => { if (status) status.textContent = copy.dataset.fwCopied; },
      () => { if (status) status.textContent = ''; },
    );
  }
});

// A menu opening closes the others (toggle does not bubble: listen while it descends).
document.addEventListener('toggle', (event) => {
  const menu = event.target;
  if (!menu.matches?.('[data-fw-menu]') || !menu.open) return;
  for (const other of document.querySelectorAll('[data-fw-menu][open]')) if (other !== menu && !other.contains(menu)) other.open = false;
}, true);

// Focus leaving an open menu (Tab past its last item) closes it.
document.addEventListener('focusout', (event) => {
  const menu = event.target.closest?.('[data-fw-menu][open]');
  if (menu && event.relatedTarget && !menu.contains(event.relatedTarget)) menu.open = false;
});

document.addEventListener('htmx:load', (event) => setUp(event.target));
setUp(document);
