const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * HTML forms can only send GET and POST. A POST carrying `_method` (form field) or the
 * `X-HTTP-Method-Override` header set to PUT, PATCH or DELETE is routed as that method; any
 * other value, or any other request method, leaves the method as it is.
 */
export function overriddenMethod(method: string, override: { field?: unknown; header?: string | undefined }): string {
  if (method.toUpperCase() !== 'POST') return method.toUpperCase();
  const candidate = typeof override.field === 'string' ? override.field : override.header;
  const wanted = typeof candidate === 'string' ? candidate.trim().toUpperCase() : '';
  return OVERRIDABLE.has(wanted) ? wanted : 'POST';
}
