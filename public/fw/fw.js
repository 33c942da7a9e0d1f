/* global document, location, fetch, setTimeout, clearTimeout, URL, URLSearchParams, FormData, CustomEvent, CSS, HTMLDialogElement */
/*
 * fw.js: the framework's own script, loaded by fw_head() after htmx. Every page works without
 * it (links and forms submit normally); it only improves them:
 * - the CSRF token (<meta name="csrf-token">) as X-CSRF-Token on every htmx request;
 * - toasts from HX-Trigger ("fw:toast") in the toasts() region, dismissable, fading after a
 *   while but not while pointed at or focused;
 * - confirmations (data-fw-confirm, hx-confirm) in a <dialog> instead of window.confirm;
 * - sheets (<dialog data-fw-sheet>): opened by [data-fw-open], closed by Escape or
 *   [data-fw-close]; a 422 shows the errors in the sheet, success closes it;
 * - live validation (<form data-live-validate>): the field being typed is checked by the server
 *   with the submit's own rules (header X-Fw-Validate), debounced;
 * - wizards (<form data-fw-wizard>): one step at a time.
 * No inline styles or scripts: the CSP stays strict. Texts come from data attributes the
 * macros fill with t(), with English fallbacks.
 */
(() => {
  'use strict';
  const doc = document;
  doc.documentElement.classList.add('fw-js');

  const token = () => doc.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

  /* CSRF: also for hx-delete, hx-put and hx-patch, which send no form field. */
  doc.addEventListener('htmx:configRequest', (event) => {
    const value = token();
    if (value !== '') event.detail.headers['X-CSRF-Token'] = value;
    /* From a sheet: the kernel answers a redirect with HX-Redirect, so the page is loaded (with its toasts). */
    const sheet = event.detail.elt?.closest?.('dialog[data-fw-sheet]');
    if (sheet) event.detail.headers['X-Fw-Sheet'] = sheet.id;
  });

  /* Toasts */
  function toastRegion() {
    let region = doc.querySelector('[data-fw-toasts]');
    if (region === null) {
      region = doc.createElement('div');
      region.className = 'fw-toasts';
      region.setAttribute('role', 'status');
      region.setAttribute('aria-live', 'polite');
      region.setAttribute('data-fw-toasts', '');
      doc.body.append(region);
    }
    return region;
  }

  function showToast(level, message) {
    const region = toastRegion();
    const toast = doc.createElement('div');
    toast.className = `fw-toast fw-toast-${/^(success|error|info|warning)$/.test(level) ? level : 'info'}`;
    const text = doc.createElement('p');
    text.className = 'fw-toast-text';
    text.textContent = String(message);
    const close = doc.createElement('button');
    close.type = 'button';
    close.className = 'fw-toast-close';
    close.setAttribute('data-fw-dismiss', '');
    close.setAttribute('aria-label', region.querySelector('[data-fw-dismiss]')?.getAttribute('aria-label') ?? 'Dismiss');
    close.textContent = '×';
    toast.append(text, close);
    region.append(toast);
  }

  doc.addEventListener('fw:toast', (event) => {
    const detail = event.detail ?? {};
    const list = Array.isArray(detail.toasts) ? detail.toasts : Array.isArray(detail.value) ? detail.value : [];
    for (const toast of list) showToast(toast.level, toast.message);
  });
  doc.addEventListener('click', (event) => {
    const button = event.target.closest?.('[data-fw-dismiss]');
    if (button) button.closest('.fw-toast')?.remove();
  });
  /* The CSS fades a toast out after a while (paused on hover and focus); then it goes. */
  doc.addEventListener('animationend', (event) => {
    if (event.animationName === 'fw-toast-out') event.target.closest?.('.fw-toast')?.remove();
  });

  /* Confirmations */
  let confirmDialog = null;
  function ask(question, source) {
    const data = source?.closest?.('[data-fw-confirm-yes]')?.dataset ?? {};
    if (confirmDialog === null) {
      confirmDialog = doc.createElement('dialog');
      confirmDialog.className = 'fw-dialog fw-confirm-dialog';
      confirmDialog.setAttribute('aria-labelledby', 'fw-confirm-title');
      confirmDialog.setAttribute('aria-describedby', 'fw-confirm-text');
      confirmDialog.innerHTML =
        '<h2 class="fw-dialog-title" id="fw-confirm-title"></h2><p id="fw-confirm-text"></p>' +
        '<form method="dialog" class="fw-dialog-actions"><button class="fw-button fw-button-quiet" value="no"></button>' +
        '<button class="fw-button" value="yes"></button></form>';
      doc.body.append(confirmDialog);
    }
    const [no, yes] = confirmDialog.querySelectorAll('button');
    confirmDialog.querySelector('h2').textContent = data.fwConfirmTitle ?? 'Are you sure?';
    confirmDialog.querySelector('p').textContent = question;
    no.textContent = data.fwConfirmNo ?? 'Cancel';
    yes.textContent = data.fwConfirmYes ?? 'Confirm';
    yes.classList.toggle('fw-button-danger', data.fwConfirmDanger !== undefined);
    confirmDialog.returnValue = '';
    confirmDialog.showModal();
    no.focus();
    return new Promise((resolve) => {
      confirmDialog.addEventListener('close', () => resolve(confirmDialog.returnValue === 'yes'), { once: true });
    });
  }

  doc.addEventListener('htmx:confirm', (event) => {
    if (!event.detail.question) return;
    event.preventDefault();
    void ask(event.detail.question, event.detail.elt).then((yes) => yes && event.detail.issueRequest(true));
  });

  /* data-fw-confirm on a form, a submit button, a link or an htmx button: asked first, then done again. */
  const confirmed = new WeakSet();
  function guard(event, element, again) {
    if (element === null || confirmed.has(element)) {
      if (element) confirmed.delete(element);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    void ask(element.getAttribute('data-fw-confirm'), element).then((yes) => {
      if (!yes) return;
      confirmed.add(element);
      again();
    });
  }
  doc.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      const submitter = event.submitter ?? null;
      const element = submitter?.closest('[data-fw-confirm]') ?? (form.matches('[data-fw-confirm]') ? form : null);
      guard(event, element, () => form.requestSubmit(submitter));
    },
    true,
  );
  doc.addEventListener(
    'click',
    (event) => {
      const element = event.target.closest?.('a[data-fw-confirm], button[data-fw-confirm]');
      /* A form's submit button is asked about on submit instead. */
      if (element && (element.tagName === 'A' || element.type !== 'submit' || element.form === null)) guard(event, element, () => element.click());
    },
    true,
  );

  /* Sheets */
  doc.addEventListener('click', (event) => {
    const opener = event.target.closest?.('[data-fw-open]');
    if (opener) {
      const sheet = doc.getElementById(opener.getAttribute('data-fw-open'));
      if (sheet instanceof HTMLDialogElement) {
        event.preventDefault();
        sheet.showModal();
        /* The first field takes the focus, not the close button the dialog would pick. */
        sheet.querySelector('[autofocus], .fw-sheet-body :is(input:not([type="hidden"]), select, textarea)')?.focus();
        /* A sheet whose form lives on another page loads it now (hx-trigger="fw:open"). */
        sheet.querySelector('[data-fw-load]')?.dispatchEvent(new CustomEvent('fw:open'));
      }
      return;
    }
    const closer = event.target.closest?.('[data-fw-close]');
    if (closer) closer.closest('dialog')?.close();
    /* A click on the backdrop (the dialog element itself, outside its box) closes it. */
    if (event.target instanceof HTMLDialogElement && event.target.matches('[data-fw-sheet]')) {
      const box = event.target.getBoundingClientRect();
      const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
      if (!inside) event.target.close();
    }
  });
  /* A sheet whose form failed without JavaScript comes back marked to be open again. */
  const reopen = (root) => {
    for (const sheet of root.querySelectorAll?.('dialog[data-fw-reopen]') ?? []) {
      /* Once: closing it must not be undone by the next swap. */
      sheet.removeAttribute('data-fw-reopen');
      if (!sheet.open) sheet.showModal();
    }
  };

  /* Field errors from a JSON answer: under each field, linked with aria-describedby. */
  const errorPath = (name) => name.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '.$1');
  function showFieldErrors(control, messages) {
    const form = control.form;
    const id = control.id || `fw-${control.name.replace(/[^\w-]/g, '-')}`;
    if (!control.id) control.id = id;
    let slot = form?.querySelector(`[data-fw-error-for="${CSS.escape(control.name)}"]`) ?? doc.getElementById(`${id}-error`);
    control.closest('.fw-field')?.classList.toggle('fw-field-invalid', messages.length > 0);
    if (messages.length === 0) {
      control.removeAttribute('aria-invalid');
      if (slot) {
        slot.textContent = '';
        slot.hidden = true;
      }
      return;
    }
    if (slot === null) {
      slot = doc.createElement('p');
      /* The markup the kit's fields and fw/auth/_field.html render for a server-side error. */
      slot.className = 'fw-error';
      slot.id = `${id}-error`;
      slot.setAttribute('data-fw-error-for', control.name);
      const wrapper = control.closest('.fw-field');
      if (wrapper) wrapper.append(slot);
      else control.after(slot);
    }
    slot.hidden = false;
    slot.textContent = messages.join(' ');
    control.setAttribute('aria-invalid', 'true');
    const described = new Set((control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean));
    described.add(slot.id);
    control.setAttribute('aria-describedby', [...described].join(' '));
  }
  function showFormErrors(form, errors) {
    let first = null;
    for (const control of form.elements) {
      if (!control.name || control.type === 'hidden') continue;
      const path = errorPath(control.name);
      const messages = Object.entries(errors).filter(([key]) => key === path || key.startsWith(`${path}.`)).flatMap(([, list]) => list);
      showFieldErrors(control, messages);
      if (messages.length > 0 && first === null) first = control;
    }
    first?.focus();
  }

  doc.addEventListener('htmx:beforeSwap', (event) => {
    const { xhr, requestConfig } = event.detail;
    const form = requestConfig?.elt?.closest?.('form');
    const sheet = requestConfig?.elt?.closest?.('dialog[data-fw-sheet]');
    if (xhr.status === 422 && form && (xhr.getResponseHeader('Content-Type') ?? '').includes('json')) {
      /* The kernel's answer to a failed form (ctx.valid): { message, errors }. */
      event.detail.shouldSwap = false;
      try {
        showFormErrors(form, JSON.parse(xhr.responseText).errors ?? {});
      } catch {
        /* Not the kernel's JSON: nothing to show. */
      }
      return;
    }
    if (sheet && xhr.status === 422 && form) {
      /* A page's fragment with the form and its errors: it takes the form's place. */
      event.detail.target = form;
      event.detail.swapOverride = 'outerHTML';
      return;
    }
    if (sheet && xhr.status >= 200 && xhr.status < 300 && requestConfig.verb !== 'get') {
      sheet.close();
      /* A boosted form (one loaded from its own page) takes the new page, as boosting does. */
      if (event.detail.boosted) {
        event.detail.target = doc.body;
        event.detail.swapOverride = 'innerHTML';
      } else if (!xhr.getResponseHeader('HX-Retarget')) event.detail.shouldSwap = false;
    }
  });

  /* Live validation */
  const timers = new WeakMap();
  const asked = new WeakMap();
  function validateLive(control) {
    const form = control.form;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') body.append(name, value);
    const method = (form.getAttribute('method') ?? 'get').toUpperCase();
    const url = new URL(form.action, location.href);
    // Live validation asks this site only: the CSRF token must never travel to another origin.
    if (url.origin !== location.origin) return;
    if (method === 'GET') url.search = body.toString();
    const sequence = (asked.get(control) ?? 0) + 1;
    asked.set(control, sequence);
    fetch(url, {
      method: method === 'GET' ? 'GET' : 'POST',
      credentials: 'same-origin',
      headers: { 'X-Fw-Validate': control.name, 'X-CSRF-Token': token(), Accept: 'application/json', ...(method === 'GET' ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }) },
      body: method === 'GET' ? undefined : body,
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (answer && asked.get(control) === sequence) showFieldErrors(control, answer.errors ?? []);
      })
      .catch(() => {
        /* Offline or refused: the submit still validates. */
      });
  }
  function liveControl(event) {
    const control = event.target;
    if (!control?.name || !control.form?.matches('[data-live-validate]') || control.type === 'file' || control.type === 'hidden') return null;
    return control;
  }
  doc.addEventListener('input', (event) => {
    const control = liveControl(event);
    if (control === null) return;
    clearTimeout(timers.get(control));
    timers.set(control, setTimeout(() => validateLive(control), Number(control.form.getAttribute('data-live-validate')) || 350));
  });
  doc.addEventListener('change', (event) => {
    const control = liveControl(event);
    if (control === null) return;
    clearTimeout(timers.get(control));
    validateLive(control);
  });

  /* Wizards: one step (fieldset[data-fw-step]) at a time; Next checks the step's fields first. */
  function showStep(wizard, index) {
    const steps = [...wizard.querySelectorAll('[data-fw-step]')];
    const at = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach((step, n) => (step.hidden = n !== at));
    wizard.querySelectorAll('[data-fw-wizard-marker]').forEach((marker, n) => {
      if (n === at) marker.setAttribute('aria-current', 'step');
      else marker.removeAttribute('aria-current');
    });
    wizard.setAttribute('data-fw-at', String(at));
    const last = at === steps.length - 1;
    wizard.querySelector('[data-fw-wizard-back]')?.toggleAttribute('hidden', at === 0);
    wizard.querySelector('[data-fw-wizard-next]')?.toggleAttribute('hidden', last);
    wizard.querySelector('[data-fw-wizard-submit]')?.toggleAttribute('hidden', !last);
    return steps[at];
  }
  const wizards = (root) => {
    for (const wizard of root.querySelectorAll?.('[data-fw-wizard]:not([data-fw-at])') ?? []) showStep(wizard, 0);
  };
  doc.addEventListener('click', (event) => {
    const button = event.target.closest?.('[data-fw-wizard-next], [data-fw-wizard-back]');
    const wizard = button?.closest('[data-fw-wizard]');
    if (!wizard) return;
    event.preventDefault();
    const at = Number(wizard.getAttribute('data-fw-at') ?? 0);
    if (button.hasAttribute('data-fw-wizard-next')) {
      const current = wizard.querySelectorAll('[data-fw-step]')[at];
      for (const control of current.querySelectorAll('input, select, textarea')) if (!control.reportValidity()) return;
      showStep(wizard, at + 1).querySelector('input, select, textarea')?.focus();
    } else showStep(wizard, at - 1).querySelector('input, select, textarea')?.focus();
  });

  const start = (root) => {
    wizards(root);
    reopen(root);
  };
  doc.addEventListener('htmx:load', (event) => start(event.target));
  if (doc.readyState !== 'loading') start(doc);
  else doc.addEventListener('DOMContentLoaded', () => start(doc));
})();
