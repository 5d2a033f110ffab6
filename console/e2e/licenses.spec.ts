// License keys in the console (CONTRACT §20): a listing's license set
// through the listing form (the API's refusals at their fields, the terms
// in words, no fulfilment asked of a licensed listing without
// deliverables, frozen once published).
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `keys-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && new URL(page.url()).pathname.startsWith('/console')) consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
});

test.afterAll(async () => {
  await context?.close();
});

test('a licensed listing through the form: refusals at their fields, the terms in words, no fulfilment asked', async ({ request }) => {
  await signUpAndConnect(page, request, email, 'Key Foundry');

  await page.goto('/console/listings/new');
  await page.getByLabel('Title').fill('Fern sync app');
  await page.getByLabel('Price (USD)').fill('12');
  const license = page.getByRole('group', { name: 'License keys' });
  const on = license.getByRole('switch', { name: 'Issue a license key with each order' });
  await expect(on).not.toBeChecked();
  await expect(license.getByLabel('Devices per key (optional)')).toHaveCount(0);
  await on.check();
  await expect(on).toBeChecked();
  const limit = page.getByLabel('Devices per key (optional)');
  const days = page.getByLabel('Keys expire after, in days (optional)');
  const prefix = page.getByLabel('Key prefix (optional)');
  // Three refusals of the API at once, each at its field.
  await limit.fill('0');
  await days.fill('5000');
  await prefix.fill('ACME-1');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: limit }).locator('.error')).toContainText('1 to 10,000');
  await expect(days).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: days }).locator('.error')).toContainText('1 to 3,650');
  await expect(prefix).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: prefix }).locator('.error')).toContainText('upper-case letters');
  await expect(page).toHaveURL(/\/console\/listings\/new$/);
  await expectAccessible(page, 'listing-new-license-errors');
  await screenshots(page, 'listing-new-license-errors');

  // Typed in lower case, the prefix is upper-cased as it is typed.
  await limit.fill('3');
  await days.fill('365');
  await prefix.fill('acme');
  await expect(prefix).toHaveValue('ACME');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/console\/listings\/lst_/);
  const terms = page.getByTestId('license-terms');
  await expect(terms).toHaveText('Up to 3 devices per key · keys expire 365 days after purchase · keys start with ACME-');
  // The key is the content: no deliverable, no webhook asked for.
  await expect(page.locator('#deliverables')).toContainText('No deliverables: each order gets a license key');
  await expect(page.locator('#deliverables')).not.toContainText('webhook');
  await expect(page.locator('.checklist')).not.toContainText(/deliverable/i);
  await expect(page.getByLabel('Orders without deliverables are fulfilled by')).toHaveCount(0);
  await expectAccessible(page, 'listing-license');
  await screenshots(page, 'listing-license');

  // As saved, after a reload; no limit and no expiry read as such.
  await page.reload();
  await expect(on).toBeChecked();
  await expect(limit).toHaveValue('3');
  await expect(days).toHaveValue('365');
  await expect(prefix).toHaveValue('ACME');
  await limit.fill('');
  await days.fill('');
  await prefix.fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(terms).toHaveText('Any number of devices per key · keys never expire');

  // Turned off: no license (null), and the listing needs content again.
  await on.uncheck();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(terms).toHaveCount(0);
  await expect(page.locator('#deliverables')).toContainText('No deliverables: orders are fulfilled');

  // On again with the terms the rest of the journey uses.
  await on.check();
  await limit.fill('2');
  await days.fill('365');
  await prefix.fill('ACME');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(terms).toHaveText('Up to 2 devices per key · keys expire 365 days after purchase · keys start with ACME-');

  // Published, the license is frozen like the other fields.
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await expect(page.locator('.page-head .badge')).toHaveText('published');
  await expect(on).toBeDisabled();
  await expect(limit).toBeDisabled();
  await expect(terms).toHaveText('Up to 2 devices per key · keys expire 365 days after purchase · keys start with ACME-');
  await expectAccessible(page, 'listing-license-published');
  await screenshots(page, 'listing-license-published');
});

test('no script error on the console pages', async () => {
  expect(consoleErrors).toEqual([]);
});
