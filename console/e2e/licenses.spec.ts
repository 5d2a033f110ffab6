// License keys in the console (CONTRACT §20): a listing's license set
// through the listing form (out-of-range terms refused in the browser in
// words for a person, each at its field; the terms in words, no fulfilment
// asked of a licensed listing without deliverables, frozen once published);
// bought twice through the product page and the sandbox; each buyer's key
// found on the License keys screen by buyer email and by key as typed; a key
// opened, disabled and enabled, its limit raised (and an out-of-range one
// refused at its field), its expiry changed; a key's devices, activated by
// the seller's app through the public license API (POST
// /v1/licenses/activate): listed with their labels, fingerprints and dates,
// the limit not lowered below them (the service's refusal said at the
// field), one removed and its slot free again.
import { test, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `keys-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
let listingUrl = '';
const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const ada = `ada-${stamp}@example.com`;
const grace = `grace-${stamp}@example.com`;
let adaKey = '';
let graceKey = '';
let adaOrder = '';
const consoleErrors: string[] = [];
const dialogs: string[] = [];
let dismissNext = false;

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  // Confirmations are read, then accepted unless a step asks to dismiss the next one.
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    if (dismissNext) {
      dismissNext = false;
      return d.dismiss();
    }
    return d.accept();
  });
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
  // Three terms out of range at once: each refused at its field, in words
  // for a person (the API's messages, written for its callers, are only a
  // last line), nothing created.
  const errorAt = (field: typeof limit) => page.locator('.field', { has: field }).locator('.error');
  await limit.fill('0');
  await days.fill('5000');
  await prefix.fill('ACME-1');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  await expect(errorAt(limit)).toHaveText('Devices per key must be a whole number from 1 to 10,000; leave it empty for any number of devices.');
  await expect(days).toHaveAttribute('aria-invalid', 'true');
  await expect(errorAt(days)).toHaveText('Keys expire after a whole number of days from 1 to 3,650 (ten years); leave it empty for keys that never expire.');
  await expect(prefix).toHaveAttribute('aria-invalid', 'true');
  await expect(errorAt(prefix)).toHaveText(
    'The key prefix can be up to 12 letters A–Z and digits 0–9, nothing else (the dash after it is added for you); leave it empty for keys without a prefix.',
  );
  for (const said of await page.locator('.error').allTextContents()) expect(said).not.toMatch(/activation_limit|expires_after_days|key_prefix|null/);
  await expect(page).toHaveURL(/\/console\/listings\/new$/);
  await expectAccessible(page, 'listing-new-license-errors');
  await screenshots(page, 'listing-new-license-errors');
  // Not numbers, and a prefix too long: the same words.
  await limit.fill('three');
  await days.fill('1.5');
  await prefix.fill('ABCDEFGHIJKLM');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(errorAt(limit)).toContainText('whole number from 1 to 10,000');
  await expect(errorAt(days)).toContainText('whole number of days from 1 to 3,650');
  await expect(errorAt(prefix)).toContainText('up to 12 letters');
  await expect(page).toHaveURL(/\/console\/listings\/new$/);

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
  listingUrl = (await page.getByRole('link', { name: 'Product page' }).getAttribute('href'))!;
  await expect(on).toBeDisabled();
  await expect(limit).toBeDisabled();
  await expect(terms).toHaveText('Up to 2 devices per key · keys expire 365 days after purchase · keys start with ACME-');
  await expectAccessible(page, 'listing-license-published');
  await screenshots(page, 'listing-license-published');
});

/** The download link of the newest "Your download" mail to `to` in the sandbox mailbox. */
async function downloadLink(request: APIRequestContext, to: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const box = await (await request.get('/sandbox/mail')).text();
        const row = box.split('<tr>').find((r) => r.includes(`<td>${to}</td>`) && r.includes('Your download'));
        const href = row?.match(/href="(\/sandbox\/mail\/[^"]+)"/)?.[1];
        if (!href) return '';
        const msg = await (await request.get(href)).text();
        link = msg.match(/https?:\/\/[^\s"<>]+\/d\/[A-Za-z0-9_-]+/)?.[0] ?? '';
        return link;
      },
      { message: `a download mail to ${to}`, timeout: 20_000 },
    )
    .toContain('/d/');
  return link;
}

/** A buyer buys the listing on its product page through the sandbox and reads the key on the download page. */
async function buy(browser: Browser, baseURL: string | undefined, request: APIRequestContext, buyer: string): Promise<string> {
  const ctx = await browser.newContext({ baseURL });
  const shop = await ctx.newPage();
  await shop.goto(listingUrl);
  await shop.getByLabel(/email/i).fill(buyer);
  await shop.getByRole('button', { name: 'Buy for $12.00' }).click();
  await shop.getByRole('button', { name: 'Continue' }).click();
  await expect(shop).toHaveURL(/thank-you/);
  await shop.goto(await downloadLink(request, buyer));
  const key = (await shop.locator('.license-key code').first().textContent())!.trim();
  await ctx.close();
  expect(key).toMatch(/^ACME(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
  return key;
}

/** A date 365 days from now as the console writes it (the tests' locale en-US, time zone UTC): "Nov 26, 2027". */
function inAYear(): string {
  return new Date(Date.now() + 365 * 86_400_000).toLocaleDateString('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

test('bought twice through the product page: each order fulfilled with its key, nothing asked of the seller', async ({ browser, baseURL, request }) => {
  adaKey = await buy(browser, baseURL, request, ada);
  graceKey = await buy(browser, baseURL, request, grace);
  expect(graceKey).not.toBe(adaKey);

  await page.goto('/console/orders');
  const row = page.getByRole('row', { name: new RegExp(ada.replace(/[.+]/g, '\\$&')) });
  await expect(row).toContainText('$12.00');
  await expect(row).toContainText(/fulfilled/i);
  await row.getByRole('link').first().click();
  adaOrder = new URL(page.url()).pathname.split('/').pop()!;
  expect(adaOrder).toMatch(/^ord_/);
  await expect(page.getByRole('heading', { name: 'Fulfill' })).toHaveCount(0);
});

test('the License keys screen: every key, found by buyer email and by key as typed, filtered by status', async () => {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'License keys' }).click();
  await expect(page.getByRole('heading', { name: 'License keys', level: 1 })).toBeVisible();
  const adaRow = page.getByRole('row', { name: new RegExp(adaKey) });
  const graceRow = page.getByRole('row', { name: new RegExp(graceKey) });
  await expect(adaRow).toContainText('Fern sync app');
  await expect(adaRow).toContainText(ada);
  await expect(adaRow.locator('.badge')).toHaveText('Active');
  await expect(adaRow).toContainText('0 of 2 devices');
  await expect(adaRow).toContainText(inAYear());
  await expect(adaRow).toContainText('Never');
  await expect(adaRow.locator('.key')).toHaveCSS('font-family', /mono/i);
  await expect(graceRow).toContainText(grace);
  await expect(adaRow.getByRole('link', { name: ada })).toHaveAttribute('href', `/console/orders/${adaOrder}`);
  // The key's copy button.
  await adaRow.getByRole('button', { name: `Copy: ${adaKey}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(adaKey);
  await expectAccessible(page, 'license-keys');
  await screenshots(page, 'license-keys');

  // By buyer email, in another case.
  const box = page.getByRole('searchbox', { name: 'Key or buyer email' });
  await box.fill(ada.toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(graceRow).toHaveCount(0);
  await expect(adaRow).toBeVisible();

  // By key, as a buyer might read it out: lower case, spaces for dashes, O for 0.
  await box.fill(graceKey.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o'));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(adaRow).toHaveCount(0);
  await expect(graceRow).toBeVisible();
  await expect(page).toHaveURL(/q=/);

  // Neither a key nor an email: said at the box, nothing searched.
  await box.fill('fern');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: box }).locator('.error')).toContainText('a whole license key');
  await expect(page.getByRole('table')).toHaveCount(0);

  // A well-formed key nobody has.
  await box.fill('ACME-00000-00000-00000-00000');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.locator('.empty')).toContainText('No license key matches ACME-00000-00000-00000-00000.');
  await expectAccessible(page, 'license-keys-none');
  await screenshots(page, 'license-keys-none');

  // The status filter, with the box empty.
  await box.fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByLabel('Status').selectOption('DISABLED');
  await expect(page.locator('.empty')).toContainText('No license key has this status.');
  await page.getByLabel('Status').selectOption('ACTIVE');
  await expect(adaRow).toBeVisible();
  await expect(graceRow).toBeVisible();
  await page.getByLabel('Status').selectOption('');
});

test("a key's page: no device yet, disabled and enabled, its limit raised and its expiry changed", async () => {
  await page.goto('/console/license-keys');
  await page.getByRole('row', { name: new RegExp(adaKey) }).getByRole('link', { name: adaKey }).click();
  await expect(page).toHaveURL(/\/console\/license-keys\/lic_/);
  await expect(page.getByRole('heading', { name: 'License key', level: 1 })).toBeVisible();
  await expect(page.getByTestId('license-key')).toHaveText(adaKey);
  await expect(page.locator('.page-head .badge')).toHaveText('Active');
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByRole('link', { name: 'Fern sync app' })).toBeVisible();
  await expect(summary.getByRole('link', { name: ada })).toHaveAttribute('href', `/console/customers?q=${encodeURIComponent(ada)}`);
  await expect(summary.getByRole('link', { name: adaOrder })).toHaveAttribute('href', `/console/orders/${adaOrder}`);
  await expect(page.getByTestId('key-devices')).toHaveText('0 of 2 devices');
  await expect(page.getByTestId('key-expires')).toContainText(inAYear());
  // No app has activated Ada's key yet (Grace's gets devices below).
  await expect(page.getByTestId('no-devices')).toContainText('No device has activated this key yet.');
  await expectAccessible(page, 'license-key');
  await screenshots(page, 'license-key');

  // Disabled, then enabled: said in words, and in the list.
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Disabled');
  await expect(page.getByRole('status').filter({ hasText: 'Disabled: the key no longer activates' })).toBeVisible();
  await expectAccessible(page, 'license-key-disabled');
  await screenshots(page, 'license-key-disabled');
  await page.goto('/console/license-keys?status=DISABLED');
  await expect(page.getByRole('row', { name: new RegExp(adaKey) }).locator('.badge')).toHaveText('Disabled');
  await expect(page.getByRole('row', { name: new RegExp(graceKey) })).toHaveCount(0);
  await page.getByRole('link', { name: adaKey }).click();
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Active');

  // The limit raised; one out of range refused at its field, in words for a person.
  const form = page.getByRole('form', { name: 'Limit and expiry' });
  const limit = form.getByLabel('Devices allowed (optional)');
  await expect(limit).toHaveValue('2');
  await limit.fill('5');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('key-devices')).toHaveText('0 of 5 devices');
  await limit.fill('20000');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: page.getByLabel('Devices allowed (optional)') }).locator('.error')).toHaveText(
    'Devices allowed must be a whole number from 1 to 10,000; leave it empty for any number of devices.',
  );
  await expect(page.getByText('Saved.')).toHaveCount(0);
  await expect(page.getByTestId('key-devices')).toHaveText('0 of 5 devices');
  await expectAccessible(page, 'license-key-limit-refused');
  await screenshots(page, 'license-key-limit-refused');
  await limit.fill('');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('key-devices')).toHaveText('0 devices · no limit');

  // The expiry: a date, a past one (expired), then never.
  const expires = form.getByLabel('Expires (UTC, optional)');
  await expires.fill('2031-03-01T12:00');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('key-expires')).toHaveText(/^Mar 1, 2031, 12:00\sPM UTC$/);
  await expires.fill('2020-01-01T00:00');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Expired');
  await expect(page.getByText('Expired: set a later expiry below')).toBeVisible();
  await expires.fill('');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('key-expires')).toHaveText('Never');
  await expect(page.locator('.page-head .badge')).toHaveText('Active');
  await page.goto('/console/license-keys');
  const row = page.getByRole('row', { name: new RegExp(adaKey) });
  await expect(row).toContainText('0 devices · no limit');
  await expect(row.getByRole('cell').nth(5)).toHaveText('Never');
});

/** A call of the public license API as the seller's app makes it: no API key, the license key is the credential. */
async function licenses(request: APIRequestContext, baseURL: string | undefined, action: 'activate' | 'validate' | 'deactivate', body: object) {
  const r = await request.post(`${baseURL}/v1/licenses/${action}`, { data: body });
  return { status: r.status(), body: r.status() === 204 ? {} : await r.json() };
}

/** A time as the console writes it in the tests' locale (en-US, UTC): "Nov 27, 2026, 02:03 PM UTC". */
const consoleTime = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}\s[AP]M UTC$/;

/** The day of an RFC 3339 time as the console writes it: "Nov 27, 2026". */
function dayOf(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

test("a key's devices: activated by the app, listed, the limit kept above them, one removed and its slot free again", async ({ request, baseURL }) => {
  // Grace's app activates her key (limit 2) on two devices; a third is refused.
  const laptop = createHash('sha256').update(`laptop ${stamp}`).digest('hex'); // 64 characters, as apps often send
  const studio = `studio-desktop-${stamp}`;
  const third = `third-${stamp}`;
  const a1 = await licenses(request, baseURL, 'activate', { key: graceKey, fingerprint: laptop, label: "Ada's laptop", metadata: { os: 'macOS 15' } });
  expect(a1.status, JSON.stringify(a1.body)).toBe(201);
  expect(a1.body.activation.label).toBe("Ada's laptop");
  const a2 = await licenses(request, baseURL, 'activate', { key: graceKey, fingerprint: studio, label: 'Studio desktop' });
  expect(a2.status, JSON.stringify(a2.body)).toBe(201);
  const full = await licenses(request, baseURL, 'activate', { key: graceKey, fingerprint: third, label: 'Third' });
  expect(full.status).toBe(409);
  expect(full.body).toMatchObject({ code: 'activation_limit_reached', current_count: 2, max_count: 2 });

  // The list counts them.
  await page.goto('/console/license-keys');
  const listRow = page.getByRole('row', { name: new RegExp(graceKey) });
  await expect(listRow).toContainText('2 of 2 devices');
  await listRow.getByRole('link', { name: graceKey }).click();
  await expect(page.getByTestId('license-key')).toHaveText(graceKey);
  await expect(page.getByTestId('key-devices')).toHaveText('2 of 2 devices');

  // The key's page lists both: label, fingerprint, activated and last seen.
  const devices = page.getByRole('table', { name: 'Devices' });
  await expect(devices.getByRole('row')).toHaveCount(3); // the header and two devices
  const laptopRow = devices.getByRole('row', { name: /Ada's laptop/ });
  const studioRow = devices.getByRole('row', { name: /Studio desktop/ });
  await expect(laptopRow.getByRole('cell').nth(0)).toHaveText("Ada's laptop");
  await expect(laptopRow.getByRole('cell').nth(1)).toHaveText(laptop);
  await expect(studioRow.getByRole('cell').nth(0)).toHaveText('Studio desktop');
  await expect(studioRow.getByRole('cell').nth(1)).toHaveText(studio);
  for (const [row, act] of [
    [laptopRow, a1.body.activation],
    [studioRow, a2.body.activation],
  ] as const) {
    await expect(row.getByRole('cell').nth(2)).toHaveText(consoleTime);
    await expect(row.getByRole('cell').nth(2)).toContainText(dayOf(act.created_at));
    await expect(row.getByRole('cell').nth(3)).toHaveText(consoleTime);
    await expect(row.getByRole('cell').nth(3)).toContainText(dayOf(act.last_seen_at));
  }
  await expectAccessible(page, 'license-key-devices');
  await screenshots(page, 'license-key-devices');

  // A limit below the devices the key is on: the service refuses it, and
  // the console says so at the field in words for a person (not the API's
  // "DELETE /v1/license-keys/…" advice to its callers).
  const form = page.getByRole('form', { name: 'Limit and expiry' });
  const limit = form.getByLabel('Devices allowed (optional)');
  await expect(limit).toHaveValue('2');
  await limit.fill('1');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  const refusal = page.locator('.field', { has: page.getByLabel('Devices allowed (optional)') }).locator('.error');
  await expect(refusal).toHaveText(
    'This key is active on 2 devices, more than 1. Remove a device from the list above first, or allow at least 2 devices.',
  );
  await expect(page.getByText('Saved.')).toHaveCount(0);
  await expect(page.getByTestId('key-devices')).toHaveText('2 of 2 devices');
  await expectAccessible(page, 'license-key-limit-below-devices');
  await screenshots(page, 'license-key-limit-below-devices');
  await limit.fill('2');

  // Remove one: asked first (and nothing happens when the seller says no).
  dismissNext = true;
  await laptopRow.getByRole('button', { name: "Remove Ada's laptop" }).click();
  await expect.poll(() => dialogs.at(-1)).toContain("Remove “Ada's laptop” from this key?");
  await expect(laptopRow).toBeVisible();
  await expect(page.getByTestId('key-devices')).toHaveText('2 of 2 devices');
  await laptopRow.getByRole('button', { name: "Remove Ada's laptop" }).click();
  await expect(page.getByRole('status').filter({ hasText: "Removed “Ada's laptop”." })).toBeVisible();
  await expect(laptopRow).toHaveCount(0);
  await expect(studioRow).toBeVisible();
  await expect(page.getByTestId('key-devices')).toHaveText('1 of 2 devices');
  await expect(limit).toHaveValue('2');
  await page.goto('/console/license-keys');
  await expect(listRow).toContainText('1 of 2 devices');

  // The app sees it: the removed device no longer validates, the other does.
  const gone = await licenses(request, baseURL, 'validate', { key: graceKey, fingerprint: laptop });
  expect(gone.status).toBe(200);
  expect(gone.body).toMatchObject({ valid: false, code: 'not_activated', activation: null });
  const kept = await licenses(request, baseURL, 'validate', { key: graceKey, fingerprint: studio });
  expect(kept.body).toMatchObject({ valid: true, code: 'valid' });
  // Its slot is free: the device activates again, as a new activation.
  const again = await licenses(request, baseURL, 'activate', { key: graceKey, fingerprint: laptop, label: "Ada's laptop" });
  expect(again.status, JSON.stringify(again.body)).toBe(201);
  expect(again.body.activation.id).not.toBe(a1.body.activation.id);
  expect(again.body.license_key.activations_count).toBe(2);
  await page.reload();
  await expect(listRow).toContainText('2 of 2 devices');
});

test('no script error on the console pages', async () => {
  expect(consoleErrors).toEqual([]);
});
