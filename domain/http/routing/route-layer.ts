import { corsLayerPolicy } from '../cors/cors.js';
import type { CorsLayerOptions, CorsPolicy } from '../cors/cors.js';
import { RoutingError } from './routing-error.js';

/**
 * A layer wrapped around some routes: one of the kinds `Routes` builds itself, or an adapter's
 * own (`extension`). The domain only records it; the HTTP kernel gives each kind its behaviour
 * in one exhaustive switch, so a kind added here and not handled there is a compile-time error.
 * `label` is what `route:list` shows in its guards column (null for plain middleware, which is
 * not listed).
 */
export type RouteLayer = BuiltInLayer | ExtensionLayer;

/**
 * A layer defined outside the domain, such as the kernel's `liveValidation(form)`: `name` says
 * which, `value` carries its argument. The kernel refuses at start-up a route under a name it
 * does not know: serving the route without the layer's behaviour would be worse than not starting.
 */
export interface ExtensionLayer<V = unknown> {
  readonly kind: 'extension';
  readonly name: string;
  readonly label: string | null;
  readonly value: V;
}

/** The layers `Routes` builds itself, so the adapter can switch on `kind`. */
export type BuiltInLayer =
  | { readonly kind: 'middleware'; readonly label: null; readonly layer: unknown }
  | { readonly kind: 'auth'; readonly label: 'auth' }
  | { readonly kind: 'verified'; readonly label: 'verified' }
  | { readonly kind: 'guest'; readonly label: 'guest' }
  | {
      readonly kind: 'gate' | 'role' | 'permission' | 'ability';
      readonly label: string;
      readonly options: { readonly name: string };
    }
  | { readonly kind: 'password-confirmed'; readonly label: 'password.confirm' }
  | {
      readonly kind: 'throttle';
      readonly label: string;
      readonly options: { readonly max: number; readonly perSeconds: number };
    }
  | { readonly kind: 'throttle-by'; readonly label: string; readonly options: { readonly name: string } }
  | { readonly kind: 'webhook'; readonly label: string; readonly options: { readonly name: string } }
  | { readonly kind: 'cors'; readonly label: 'cors'; readonly options: { readonly policy: CorsPolicy } }
  | { readonly kind: 'etag'; readonly label: 'etag' }
  | { readonly kind: 'csrf-off'; readonly label: 'csrf:off' };

// A name is shown as `role:<name>` in a comma-separated column, so spaces and commas would
// make the listing ambiguous; they are never part of a real gate, role or limiter name.
const LAYER_NAME = /^[^\s,]+$/u;

export function namedLayer(kind: 'gate' | 'role' | 'permission' | 'ability' | 'throttle-by' | 'webhook', name: string): BuiltInLayer {
  if (!LAYER_NAME.test(name)) {
    throw new RoutingError('routing.layer-argument', `${kind} name '${name}' must be non-empty, without spaces or commas`);
  }
  const options = Object.freeze({ name });
  if (kind === 'throttle-by') return Object.freeze({ kind, label: `throttle:${name}`, options });
  return Object.freeze({ kind, label: `${kind}:${name}`, options });
}

export function throttleLayer(max: number, perSeconds: number): BuiltInLayer {
  for (const [what, value] of [['max', max], ['perSeconds', perSeconds]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RoutingError('routing.throttle', `throttle ${what} must be an integer of at least 1, got ${value}`);
    }
  }
  const options = Object.freeze({ max, perSeconds });
  return Object.freeze({ kind: 'throttle', label: `throttle:${max}/${perSeconds}s`, options });
}

/**
 * `.cors(origins)` and `.corsLayer(options)`: the policy is built here, so a bad origin, header
 * or credentials with `*`/`null` stops the app when its routes are built, not at a request.
 */
export function corsLayer(options: CorsLayerOptions): BuiltInLayer {
  if (options.origins.length === 0 || options.origins.some((origin) => origin.trim() === '')) {
    throw new RoutingError('routing.layer-argument', "cors needs at least one non-empty origin (['*'] for any origin)");
  }
  let policy: CorsPolicy;
  try {
    policy = corsLayerPolicy(options);
  } catch (error) {
    if (error instanceof TypeError) throw new RoutingError('routing.layer-argument', `cors: ${error.message}`);
    throw error;
  }
  return Object.freeze({ kind: 'cors', label: 'cors', options: Object.freeze({ policy }) });
}

/**
 * The CORS policies over a route, the layer declared nearest the route first (layers are
 * stored outermost first). Empty when no cors layer covers it.
 */
export function corsPolicies(layers: readonly RouteLayer[]): CorsPolicy[] {
  const policies: CorsPolicy[] = [];
  for (const layer of layers) {
    if (layer.kind === 'cors') policies.unshift(layer.options.policy);
  }
  return policies;
}

/** Checks a layer given to the generic `Routes.layer(entry)`: only extension layers come that way. */
export function checkLayer<V>(entry: ExtensionLayer<V>): ExtensionLayer<V> {
  if (entry.kind !== 'extension') {
    throw new RoutingError('routing.layer-argument', "a route layer given to .layer() has the kind 'extension'; built-in layers have their own methods");
  }
  if (typeof entry.name !== 'string' || entry.name === '') {
    throw new RoutingError('routing.layer-argument', 'a route layer needs a non-empty name');
  }
  if (entry.label !== null && (typeof entry.label !== 'string' || entry.label === '')) {
    throw new RoutingError('routing.layer-argument', `layer '${entry.name}': label must be null or a non-empty string`);
  }
  return Object.freeze({ ...entry });
}
