import type { Browser, Page } from 'playwright-core';
import { newPage, nextClientAddress, type ContextOptions } from './browser.js';

/**
 * Where the web app keeps its session (web/src/shared/auth/session.ts): the access token in
 * localStorage; the role and user id in sessionStorage, which the signed-in area's guard
 * fills from GET /users/me on the first screen.
 */
const TOKEN_KEY = 'access_token';

/**
 * The access token of `email`, from POST /api/auth/login (the call the login form makes),
 * as the client `clientAddress` (the login limit counts per address and per e-mail).
 */
export async function apiToken(
  baseUrl: string,
  email: string,
  password: string,
  clientAddress = nextClientAddress(),
): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress },
    body: JSON.stringify({ email, password }),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`login ${email}: ${answer.status} ${text}`);
  return (JSON.parse(text) as { access_token: string }).access_token;
}

/**
 * A page of a new browser context already signed in as `email`, opened at `target` (a path):
 * the token comes from the API and the context starts with it where the web app keeps it, so
 * the page loads the app once instead of the login screen, a form and a redirect. For tests
 * whose subject is not the sign-in itself (identity.test.ts drives the login form). Throws
 * unless the signed-in area's guard accepted the session (its /users/me answered 200).
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
  target: string,
  options: Pick<ContextOptions, 'viewport' | 'serviceWorkers'> = {},
): Promise<Page> {
  const clientAddress = nextClientAddress();
  const token = await apiToken(baseUrl, email, password, clientAddress);
  const page = await newPage(browser, { ...options, clientAddress });
  await page.context().addInitScript(seedToken, {
    origin: new URL(baseUrl).origin,
    token,
    tokenKey: TOKEN_KEY,
    seededKey: SEEDED_KEY,
  });
  const me = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users/me');
  await page.goto(baseUrl + target);
  const answer = await me;
  if (answer.status() !== 200) {
    throw new Error(`${email} at ${target}: /api/users/me answered ${answer.status()}`);
  }
  return page;
}

/** Marks a context's storage as seeded, so that a sign-out's removal of the token stays. */
const SEEDED_KEY = 'e2e-session-seeded';

/**
 * Runs in each of the context's documents before the app's scripts (serialised: it reads only
 * its argument): the first document of the app's origin finds the token where a sign-in leaves
 * it, as a context created with that storage would; later documents find what the app left
 * there. Playwright's `storageState` origins do the same by opening and navigating a page of
 * their own in every context (2 s of a signed-in page's 4 s on a loaded machine).
 */
function seedToken(seed: { origin: string; token: string; tokenKey: string; seededKey: string }) {
  if (location.origin !== seed.origin || localStorage.getItem(seed.seededKey) !== null) return;
  localStorage.setItem(seed.seededKey, '1');
  localStorage.setItem(seed.tokenKey, seed.token);
}

/**
 * The page's list of movements: its table other than Mon Wallet's holds ('Montants réservés
 * par contrat', `data-testid="wallet-holds"`), which stands above it on the same page.
 */
export const movementsTable = (page: Page) =>
  page.locator('table:not([data-testid="wallet-holds"])');
