import type { Handler } from '../adapters/http/kernel/request-context.js';
import { Routes } from '../domain/http/routing/routes.js';

/** `Routes` with the framework's handler type filled in, as apps use it: `new Routes().get(…)`. */
export class AppRoutes extends Routes<Handler> {}
