// The buyer's library (CONTRACT §21), walked by a buyer: two purchases
// from two sellers with one email (one of them licensed, its key active on
// a device), the download email's library link, the email form, the
// emailed sign-in link read from the sandbox mailbox, both stores' orders
// in the library, a download page opened from it and back, a device
// deactivated from the library, one store's view, sign out. Then the
// seller's side: the customers screen's portal link, whose session shows
// only that seller's store. Every buyer page is checked with axe and
// photographed at desktop width and at 375 px.
import { test, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const buyer = `reader-${stamp}@example.com`;
let mossConsole: BrowserContext;
let mossPage: Page;
let mossKey = '';
let fernKey = '';
let buyerContext: BrowserContext;
let shop: Page;
const errors: string[] = [];

test.beforeAll(async ({ browser, baseURL }) => {
  mossConsole = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  mossPage = await mossConsole.newPage();
  buyerContext = await browser.newContext({ baseURL });
  shop = await buyerContext.newPage();
  shop.on('pageerror', (e) => errors.push(`${shop.url()}: ${e.message}`));
});

test.afterAll(async () => {
  await mossConsole?.close();
  await buyerContext?.close();
});

/** A published listing made through the API: a text deliverable, or a license for 2 devices. */
async function listing(request: APIRequestContext, key: string, title: string, licensed: boolean): Promise<string> {
  const headers = { Authorization: `Bearer ${key}` };
  const data = licensed
    ? { title, price: 1900, license: { activation_limit: 2 } }
    : { title, price: 1200, deliverables: [{ type: 'text', value: `Thank you for buying ${title}.` }] };
  const created = await request.post('/v1/listings', { headers, data });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();
  const published = await request.post(`/v1/listings/${id}/publish`, { headers });
  expect(published.status(), await published.text()).toBe(200);
  return (await published.json()).url;
}

/** The newest sandbox mail to `to` whose subject starts with `subject`, as its text. */
async function mailText(request: APIRequestContext, to: string, subject: string, seen = ''): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const box = await (await request.get('/sandbox/mail')).text();
        const row = box.split('<tr>').find((r) => r.includes(`<td>${to}</td>`) && r.includes(`">${subject}`));
        const href = row?.match(/href="(\/sandbox\/mail\/[^"]+)"/)?.[1];
        if (!href || href === seen) return '';
        text = (await (await request.get(href)).text()).replace(/&amp;/g, '&');
        return href;
      },
      { message: `a mail "${subject}" to ${to}`, timeout: 20_000 },
    )
    .not.toBe('');
  return text;
}

/** The buyer buys on the product page through the sandbox checkout. */
async function buy(page: Page, url: string, price: string) {
  await page.goto(url);
  await page.getByLabel(/email/i).fill(buyer);
  await page.getByRole('button', { name: `Buy for ${price}` }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/thank-you/);
}

test('two sellers, one buyer: a purchase from each, a device on the license key', async ({ browser, baseURL, request }) => {
  mossKey = await signUpAndConnect(mossPage, request, `moss-${stamp}@example.com`, 'Moss Press');
  const fernContext = await browser.newContext({ baseURL });
  fernKey = await signUpAndConnect(await fernContext.newPage(), request, `fern-${stamp}@example.com`, 'Fern Works');
  await fernContext.close();
  const moss = await listing(request, mossKey, 'Moss field guide', false);
  const fern = await listing(request, fernKey, 'Fern sync app', true);

  await buy(shop, moss, '$12.00');
  await buy(shop, fern, '$19.00');
  // The licensed app is activated on a device by the seller's app.
  const mail = await mailText(request, buyer, 'Your download: Fern sync app');
  const key = mail.match(/\b([0-9A-HJKMNP-TV-Z]{5}(?:-[0-9A-HJKMNP-TV-Z]{5}){3})\b/)?.[1];
  expect(key, mail).toBeTruthy();
  const activated = await request.post('/v1/licenses/activate', { data: { key, fingerprint: `studio-${stamp}`, label: 'Studio laptop' } });
  expect(activated.status(), await activated.text()).toBe(201);
});

test('from the download email to the library: the form, the emailed link, both stores', async ({ request }) => {
  // The download email links the library.
  const mail = await mailText(request, buyer, 'Your download: Moss field guide');
  const library = mail.match(/https?:\/\/[^\s"<>]+\/library\b/)?.[0];
  expect(library, mail).toBeTruthy();
  await shop.goto(library!);
  await expect(shop.getByRole('heading', { name: 'Your purchases', level: 1 })).toBeVisible();
  await expectAccessible(shop, 'library-sign-in');
  await screenshots(shop, 'library-sign-in');

  await shop.getByLabel('Email address').fill(buyer);
  await shop.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(shop.getByRole('heading', { name: 'Check your inbox', level: 1 })).toBeVisible();
  await expectAccessible(shop, 'library-check-inbox');
  await screenshots(shop, 'library-check-inbox');

  const signIn = await mailText(request, buyer, 'Sign in to your purchases');
  const link = signIn.match(/https?:\/\/[^\s"<>]+\/library\/auth\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, signIn).toBeTruthy();
  await shop.goto(link!);
  await expect(shop).toHaveURL(/\/library$/);
  await expect(shop.getByText(`Signed in as ${buyer}`)).toBeVisible();
  const fern = shop.getByRole('region', { name: 'Fern Works' });
  const moss = shop.getByRole('region', { name: 'Moss Press' });
  await expect(fern.getByRole('heading', { name: 'Fern sync app' })).toBeVisible();
  await expect(fern).toContainText('$19.00');
  await expect(moss.getByRole('heading', { name: 'Moss field guide' })).toBeVisible();
  await expect(moss).toContainText('$12.00');
  await expect(moss).toContainText('Delivered');
  await expect(fern.getByRole('list', { name: 'Devices using this key' })).toContainText('Studio laptop');
  await expectAccessible(shop, 'library');
  await screenshots(shop, 'library');

  // The link, once used, works no more: the form says so, with the email.
  const again = await buyerContext.newPage();
  await again.goto(link!);
  await expect(again.getByText('This sign-in link was already used.')).toBeVisible();
  await expect(again.getByLabel('Email address')).toHaveValue(buyer);
  await expectAccessible(again, 'library-link-used');
  await screenshots(again, 'library-link-used');
  await again.close();
});

test('a download page opened from the library, and back', async () => {
  await shop.getByRole('link', { name: 'Open the download page of Moss field guide' }).click();
  await expect(shop).toHaveURL(/\/d\/[A-Za-z0-9_-]+$/);
  await expect(shop.getByRole('heading', { name: 'Moss field guide', level: 1 })).toBeVisible();
  await expect(shop.getByText('Thank you for buying Moss field guide.')).toBeVisible();
  await shop.getByRole('link', { name: 'All your purchases' }).click();
  await expect(shop).toHaveURL(/\/library$/);
  await expect(shop.getByRole('heading', { name: 'Your purchases', level: 1 })).toBeVisible();
});

test('a device deactivated from the library, one store’s view, sign out', async () => {
  const fern = shop.getByRole('region', { name: 'Fern Works' });
  await fern.getByRole('button', { name: 'Deactivate Studio laptop' }).click();
  await expect(shop.getByRole('status').filter({ hasText: 'The device was deactivated' })).toBeVisible();
  await expect(fern).toContainText('Not active on any device yet (up to 2)');
  await expect(fern.getByRole('button', { name: /Deactivate/ })).toHaveCount(0);
  await expectAccessible(shop, 'library-device-freed');
  await screenshots(shop, 'library-device-freed');

  await shop.getByRole('link', { name: 'Only purchases from Moss Press' }).click();
  await expect(shop.getByRole('heading', { name: 'Your purchases from Moss Press', level: 1 })).toBeVisible();
  await expect(shop.getByRole('heading', { name: 'Moss field guide' })).toBeVisible();
  await expect(shop.getByRole('heading', { name: 'Fern sync app' })).toHaveCount(0);
  await expectAccessible(shop, 'library-store');
  await screenshots(shop, 'library-store');
  await shop.getByRole('link', { name: 'See your purchases from every store' }).click();
  await expect(shop.getByRole('heading', { name: 'Fern sync app' })).toBeVisible();

  await shop.getByRole('button', { name: 'Sign out' }).click();
  await expect(shop.getByText('You are signed out.')).toBeVisible();
  await expect(shop.getByLabel('Email address')).toBeVisible();
  await shop.goto('/library');
  await expect(shop.getByRole('heading', { name: 'Fern sync app' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the seller’s portal link: copied from the customers screen, it shows only that store', async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
  await mossPage.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
  await mossPage.getByRole('button', { name: `Copy portal link for ${buyer}` }).click();
  const shown = mossPage.getByTestId('portal-url');
  await expect(shown).toHaveText(/\/library\/auth\/[A-Za-z0-9_-]{43}$/);
  await expect(mossPage.getByRole('status').filter({ hasText: 'Link copied to the clipboard.' })).toBeVisible();
  const url = (await shown.textContent())!;
  expect(await mossPage.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectAccessible(mossPage, 'customers-portal-link');
  await screenshots(mossPage, 'customers-portal-link');

  const portal = await browser.newContext({ baseURL });
  const p = await portal.newPage();
  await p.goto(url);
  await expect(p.getByRole('heading', { name: 'Your purchases from Moss Press', level: 1 })).toBeVisible();
  await expect(p.getByRole('heading', { name: 'Moss field guide' })).toBeVisible();
  await expect(p.getByRole('heading', { name: 'Fern sync app' })).toHaveCount(0);
  await expect(p.getByText('This sign-in shows your purchases from Moss Press only.')).toBeVisible();
  await expectAccessible(p, 'library-portal');
  await screenshots(p, 'library-portal');
  await portal.close();
});
