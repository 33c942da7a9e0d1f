import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardOutcome, turnAwayGuest } from '../../../../domain/http/guards.js';
import type { GuardFacts, GuardKind, GuardOutcome, GuardPages, GuardRequest, GuardUser } from '../../../../domain/http/guards.js';

const pages: GuardPages = { login: '/login', verificationNotice: '/verify-email', home: '/', passwordConfirm: '/confirm-password' };
const page: GuardRequest = { method: 'GET', api: false, partial: false };
const form: GuardRequest = { method: 'POST', api: false, partial: false };
const api: GuardRequest = { method: 'GET', api: true, partial: false };
const htmx: GuardRequest = { method: 'GET', api: false, partial: true };

const member: GuardUser = { verified: true, viaToken: false, abilities: null, passwordConfirmedRecently: true };
const unverified: GuardUser = { ...member, verified: false };
const stale: GuardUser = { ...member, passwordConfirmedRecently: false };
const restrictedToken: GuardUser = { ...member, viaToken: true, abilities: ['orders:read'] };

const toLogin: GuardOutcome = { kind: 'redirect', to: '/login', remember: true };
const pass: GuardOutcome = { kind: 'pass' };
const forbidden = (json: boolean): GuardOutcome => ({ kind: 'refuse', status: 403, reason: 'forbidden', json });

describe('guardOutcome: the guard table of spec 001', () => {
  it.each<[string, GuardKind, GuardFacts, GuardRequest, GuardOutcome]>([
    ['requireAuth lets users through', 'auth', { user: member }, page, pass],
    ['requireAuth sends guests to login, remembering the page', 'auth', { user: null }, page, toLogin],
    ['requireAuth does not remember a form post', 'auth', { user: null }, form, { kind: 'redirect', to: '/login', remember: false }],
    ['requireAuth gives API clients 401 JSON', 'auth', { user: null }, api, { kind: 'refuse', status: 401, reason: 'unauthenticated', json: true }],
    ['requireAuth gives partial updates HX-Redirect', 'auth', { user: null }, htmx, { kind: 'hx-redirect', to: '/login' }],
    ['requireVerified lets verified users through', 'verified', { user: member }, page, pass],
    ['requireVerified sends guests to login', 'verified', { user: null }, page, toLogin],
    ['requireVerified sends others to verification.notice', 'verified', { user: unverified }, page, { kind: 'redirect', to: '/verify-email', remember: false }],
    ['requireVerified gives JSON clients 403 JSON', 'verified', { user: unverified }, api, { kind: 'refuse', status: 403, reason: 'unverified', json: true }],
    ['requireVerified gives API tokens 403', 'verified', { user: { ...unverified, viaToken: true } }, page, { kind: 'refuse', status: 403, reason: 'unverified', json: false }],
    ['guestOnly lets guests through', 'guest', { user: null }, page, pass],
    ['guestOnly sends users home', 'guest', { user: member }, page, { kind: 'redirect', to: '/', remember: false }],
    ['requireGate lets allowed users through', 'gate', { user: member, allowed: true }, page, pass],
    ['requireGate refuses others with 403', 'gate', { user: member, allowed: false }, page, forbidden(false)],
    ['requireGate sends guests to login', 'gate', { user: null }, page, toLogin],
    ['requireRole refuses without the role', 'role', { user: member, allowed: false }, api, forbidden(true)],
    ['requirePermission with it', 'permission', { user: member, allowed: true }, page, pass],
    ['requireAbility lets sessions through', 'ability', { user: member, ability: 'orders:write' }, page, pass],
    ['requireAbility lets unrestricted tokens through', 'ability', { user: { ...member, viaToken: true }, ability: 'orders:write' }, api, pass],
    ['requireAbility lets a token with the ability through', 'ability', { user: restrictedToken, ability: 'orders:read' }, api, pass],
    ['requireAbility refuses a token without it', 'ability', { user: restrictedToken, ability: 'orders:write' }, api, forbidden(true)],
    ['requirePasswordConfirmed lets a recent confirmation through', 'password-confirmed', { user: member }, page, pass],
    ['requirePasswordConfirmed sends others to /confirm-password', 'password-confirmed', { user: stale }, page, { kind: 'redirect', to: '/confirm-password', remember: true }],
    ['requirePasswordConfirmed gives API clients 423', 'password-confirmed', { user: stale }, api, { kind: 'refuse', status: 423, reason: 'confirm-password', json: true }],
  ])('%s', (_name, kind, facts, request, expected) => {
    expect(guardOutcome(kind, facts, request, pages)).toEqual(expected);
  });

  it('turns guests away with a 401 page when the app has no login route', () => {
    expect(turnAwayGuest(page, { login: null })).toEqual({ kind: 'refuse', status: 401, reason: 'unauthenticated', json: false });
  });

  it('refuses unverified users with 403 when the app has no verification notice page', () => {
    expect(guardOutcome('verified', { user: unverified }, page, { ...pages, verificationNotice: null })).toMatchObject({ kind: 'refuse', status: 403 });
  });

  const kinds = fc.constantFrom<GuardKind>('auth', 'verified', 'gate', 'role', 'permission', 'ability', 'password-confirmed');
  const requests = fc.record({ method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'), api: fc.boolean(), partial: fc.boolean() });

  it('never lets a guest through a guard other than guestOnly, whatever the request', () => {
    fc.assert(
      fc.property(kinds, requests, fc.option(fc.boolean(), { nil: undefined }), (kind, request, allowed) => {
        const facts: GuardFacts = allowed === undefined ? { user: null } : { user: null, allowed };
        expect(guardOutcome(kind, facts, request, pages).kind).not.toBe('pass');
      }),
    );
  });

  it('remembers the page only for GET and HEAD requests of whole pages', () => {
    fc.assert(
      fc.property(kinds, requests, (kind, request) => {
        const outcome = guardOutcome(kind, { user: null }, request, pages);
        if (outcome.kind === 'redirect' && outcome.remember) {
          expect(['GET', 'HEAD']).toContain(request.method);
          expect(request.partial).toBe(false);
        }
        if (request.api) expect(outcome).toMatchObject({ kind: 'refuse', status: 401, json: true });
      }),
    );
  });

  it('gates, roles and permissions pass exactly when the policy allowed it', () => {
    fc.assert(
      fc.property(fc.constantFrom<GuardKind>('gate', 'role', 'permission'), requests, fc.option(fc.boolean(), { nil: undefined }), (kind, request, allowed) => {
        const facts: GuardFacts = allowed === undefined ? { user: member } : { user: member, allowed };
        expect(guardOutcome(kind, facts, request, pages).kind === 'pass').toBe(allowed === true);
      }),
    );
  });
});
