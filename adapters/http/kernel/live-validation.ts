/**
 * Live validation (`<form data-live-validate>`): as the user types, fw.js posts the form to
 * its own action with the header `X-Fw-Validate: <field>`. The kernel answers that request
 * itself, in place of the route's handler, with the errors the submit would give that field:
 * the same form (`liveValidation(schema)` on the route names it), the same input, the same
 * rules, language and messages. The handler never runs, so nothing is written, and the session
 * is not stored either (the session stage leaves it as it found it): a check still in flight
 * while a save's page reloads must not spend the toast the save flashed for that page.
 *
 * It cannot get round the checks a submit meets: the request goes through the whole pipeline
 * (session, CSRF: a POST without the token is a 419; the route's guards and throttles; the
 * form's `authorize`, a 403) before the kernel answers in the handler's place. A route without
 * `liveValidation(...)` refuses the header with a 400 rather than running its handler on a
 * half-typed form.
 */
import type { ExtensionLayer } from '../../../domain/http/routing/route-layer.js';
import type { FormSchema } from '../validation/form-schema.js';
import type { KernelContext } from './context.js';
import { HttpAbort } from './http-error.js';
import { json } from './replies.js';
import type { Reply } from './replies.js';

/** The request header naming the field to check; its value is the field's input name. */
export const LIVE_VALIDATION_HEADER = 'x-fw-validate';
export const LIVE_VALIDATION_LAYER = 'live-validation';

/**
 * Lets the routes added before it validate their form as the user types:
 * `new Routes().post('/products', save).layer(liveValidation(productForm))`, with the same
 * schema the handler passes to `ctx.valid(...)`. Where the layer is written does not matter:
 * the kernel answers in the handler's place, inside every guard.
 */
export function liveValidation<T>(schema: FormSchema<T>): ExtensionLayer<FormSchema<T>> {
  return { kind: 'extension', name: LIVE_VALIDATION_LAYER, label: null, value: schema };
}

/** An input name as the errors name it: `address[city]` → `address.city`, `tags[]` → `tags`. */
export function errorPath(name: string): string {
  return name.replace(/\[\]$/u, '').replace(/\[([^\]]*)\]/gu, '.$1');
}

/**
 * The answer to a live-validation request: `{ field, errors }` (200), `errors` being the
 * messages the submit would show under the field (its own and its items', `tags.0`), none
 * when it passes.
 */
export async function answerLiveValidation(ctx: KernelContext, schema: FormSchema<unknown> | null, field: string): Promise<Reply> {
  if (schema === null) throw new HttpAbort(400, 'This form is not validated as you type.');
  if (field === '' || field.length > 200) throw new HttpAbort(400, 'The field to validate is missing.');
  const result = await ctx.validation(schema);
  if (result.kind === 'forbidden') throw new HttpAbort(403, '');
  const path = errorPath(field);
  const errors =
    result.kind === 'valid'
      ? []
      : Object.entries(result.errors)
          .filter(([key]) => key === path || key.startsWith(`${path}.`))
          .flatMap(([, messages]) => messages);
  return json({ field, errors });
}
