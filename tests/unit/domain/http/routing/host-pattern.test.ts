import { describe, expect, it } from 'vitest';
import { compareHostSpecificity, hostLabels, matchHost, parseHostPattern } from '../../../../../domain/http/routing/host-pattern.js';
import { expectRoutingError } from './routing-helpers.js';

describe('parseHostPattern', () => {
  it.each([
    ['{tenant}.example.com', '{}.example.com'],
    ['Admin.Example.COM', 'admin.example.com'],
    ['{a}.{b}.example.com', '{}.{}.example.com'],
    ['localhost', 'localhost'],
    ['my-app_1.test', 'my-app_1.test'],
  ])('%s has the shape %s', (source, shape) => {
    const pattern = parseHostPattern(source);
    expect(pattern.source).toBe(source);
    expect(pattern.shape).toBe(shape);
  });

  it.each([
    ['', 'empty'],
    ['.example.com', 'empty label'],
    ['example.com.', 'empty label'],
    ['a..com', 'empty label'],
    ['example.com:8080', 'no port'],
    ['*.example.com', "'*'"],
    ['{}.example.com', 'identifiers'],
    ['{1x}.example.com', 'identifiers'],
    ['x{a}.example.com', "'x{a}'"],
    ['{a}.{a}.com', 'twice'],
    ['exa mple.com', "'exa mple'"],
  ])('%j throws routing.bad-domain (%s)', (source, fragment) => {
    expectRoutingError(() => parseHostPattern(source), 'routing.bad-domain', fragment);
  });
});

describe('hostLabels', () => {
  it.each([
    ['example.com', ['example', 'com']],
    ['Acme.Example.COM', ['acme', 'example', 'com']],
    ['acme.example.com:8443', ['acme', 'example', 'com']],
    ['acme.example.com.', ['acme', 'example', 'com']],
    [' acme.example.com ', ['acme', 'example', 'com']],
    ['[::1]:3000', ['[::1]']],
    ['', ['']],
  ])('%j gives %j', (host, labels) => {
    expect(hostLabels(host)).toEqual(labels);
  });
});

describe('matchHost', () => {
  const pattern = parseHostPattern('{tenant}.Example.com');
  it.each<[string, Record<string, string> | null]>([
    ['acme.example.com', { tenant: 'acme' }],
    ['ACME.EXAMPLE.COM:80', { tenant: 'acme' }],
    ['example.com', null],
    ['a.b.example.com', null],
    ['acme.example.org', null],
    ['', null],
  ])('%j gives %j', (host, params) => {
    expect(matchHost(pattern, hostLabels(host))).toEqual(params);
  });
});

describe('compareHostSpecificity', () => {
  it.each([
    ['admin.example.com', '{tenant}.example.com'],
    ['{a}.example.com', 'foo.{b}.com'],
  ])('%s is more specific than %s', (more, less) => {
    expect(compareHostSpecificity(parseHostPattern(more), parseHostPattern(less))).toBeLessThan(0);
    expect(compareHostSpecificity(parseHostPattern(less), parseHostPattern(more))).toBeGreaterThan(0);
  });
});
