// Memberships in the console (CONTRACT §26), on real memberships: a
// monthly listing with a free trial made through the listing form (its
// billing fields, a trial out of range refused in words at its field, pay
// what you want refused by the service at the pricing choice, the billing
// in words, frozen once published) and a yearly one made through the API;
// buyers checking out through the sandbox, their memberships moved through
// renewals with the sandbox's advance (trial → active, a renewal paid, a
// renewal failed → past due). The Memberships screen: the list with its
// amounts per period and next steps, the status filter, the buyer search,
// a search refused in words. A membership's screen: its facts in words,
// its orders with their billing reasons, cancel at the period's end (after
// a confirmation), resume, a resume refused in words once it ended
// elsewhere, cancel now. The order screen's membership and billing reason,
// the customer screen's memberships, home's MRR and active memberships,
// another account's membership not found. Every screen checked with axe
// and photographed at desktop width and at 375 px.
import { test, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const seller = `letters-${stamp}@example.com`;
const ada = `ada-${stamp}@example.com`;
const grace = `grace-${stamp}@example.com`;
const lin = `lin-${stamp}@example.com`;
let context: BrowserContext;
let page: Page;
let key = '';
let monthlyId = '';
let yearlyId = '';
const members: Record<string, string> = {};
const consoleErrors: string[] = [];
const dialogs: string[] = [];
let dismissNext = false;

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL });
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

const auth = () => ({ Authorization: `Bearer ${key}` });

/** A checkout of a listing for `email` (POST /v1/checkouts), paid on the sandbox checkout page; the membership's id. */
async function buy(request: APIRequestContext, buyerPage: Page, listingId: string, email: string): Promise<string> {
  const started = await request.post('/v1/checkouts', { headers: auth(), data: { listing_id: listingId, buyer_email: email } });
  expect(started.status(), await started.text()).toBe(201);
  await buyerPage.goto((await started.json()).url);
  await buyerPage.getByRole('button', { name: 'Continue' }).click();
  await expect(buyerPage).toHaveURL(/thank-you/);
  let id = '';
  await expect
    .poll(
      async () => {
        const r = await request.get(`/v1/memberships?buyer_email=${encodeURIComponent(email)}&listing=${listingId}`, { headers: auth() });
        id = (await r.json()).data?.[0]?.id ?? '';
        return id;
      },
      { message: `the membership of ${email}` },
    )
    .toMatch(/^mem_/);
  return id;
}

/** The sandbox's advance: the membership's next renewal (or retry) runs now with this outcome. */
async function advance(request: APIRequestContext, id: string, outcome: 'paid' | 'failed'): Promise<{ status: string }> {
  const r = await request.post(`/sandbox/memberships/${id}/advance`, { data: { outcome } });
  expect(r.status(), await r.text()).toBe(200);
  return r.json();
}

test('the listing form: billing, interval and trial; refusals at their fields; the billing in words; frozen once published', async ({ request }) => {
  key = await signUpAndConnect(page, request, seller, 'Moss Letters');

  await page.goto('/console/listings/new');
  await page.getByLabel('Title').fill('Moss monthly letters');
  const billing = page.getByRole('group', { name: 'Billing' });
  await expect(billing.getByRole('radio', { name: /One-time/ })).toBeChecked();
  // One-time: no interval, no trial.
  await expect(page.getByRole('group', { name: 'Interval' })).toHaveCount(0);
  await expect(page.getByLabel('Free trial (days, optional)')).toHaveCount(0);
  await expect(page.getByLabel('Price (USD)')).toBeVisible();
  await billing.getByRole('radio', { name: /Membership/ }).check();
  const interval = page.getByRole('group', { name: 'Interval' });
  await expect(interval.getByRole('radio', { name: /Monthly/ })).toBeChecked();
  await expect(page.getByLabel('Price per month (USD)')).toBeVisible();
  await interval.getByRole('radio', { name: /Yearly/ }).check();
  await expect(page.getByLabel('Price per year (USD)')).toBeVisible();
  await interval.getByRole('radio', { name: /Monthly/ }).check();
  await page.getByLabel('Price per month (USD)').fill('9');
  // A member's license key lasts as long as the membership: no expiry to set.
  const keys = page.getByRole('switch', { name: 'Issue a license key with each order' });
  await keys.check();
  await expect(page.getByLabel('Devices per key (optional)')).toBeVisible();
  await expect(page.getByLabel('Keys expire after, in days (optional)')).toHaveCount(0);
  await expect(page.getByTestId('membership-key-expiry')).toHaveText('A member’s key works while the membership lasts and expires when it ends.');
  await keys.uncheck();

  // A trial out of range: refused in the browser, in words, at its field.
  const trial = page.getByLabel('Free trial (days, optional)');
  const errorAt = (field: typeof trial) => page.locator('.field', { has: field }).locator('.error');
  await trial.fill('120');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(trial).toHaveAttribute('aria-invalid', 'true');
  await expect(errorAt(trial)).toHaveText('A free trial lasts a whole number of days from 0 to 90; leave it empty or 0 for none.');
  await expect(page).toHaveURL(/\/console\/listings\/new$/);

  // Pay what you want is not for memberships: the service refuses it, said at the pricing choice.
  await trial.fill('14');
  const pricing = page.getByRole('group', { name: 'Pricing' });
  await expect(pricing).toContainText('not for memberships');
  await pricing.getByRole('radio', { name: /Pay what you want/ }).check();
  await page.getByLabel('Minimum price (USD)').fill('9');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(pricing.locator('.error')).toBeVisible();
  await expect(page).toHaveURL(/\/console\/listings\/new$/);
  await expectAccessible(page, 'listing-new-membership-errors');
  await screenshots(page, 'listing-new-membership-errors');

  await pricing.getByRole('radio', { name: /A fixed price/ }).check();
  await page.getByLabel('Price per month (USD)').fill('9');
  await page.getByLabel('Deliverable type').selectOption('TEXT');
  await page.getByLabel('Text', { exact: true }).fill('This month’s letter is in your library.');
  await page.getByRole('button', { name: 'Add deliverable' }).click();
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/console\/listings\/lst_/);
  monthlyId = page.url().match(/(lst_[a-z0-9]+)/)![1];
  const facts = page.getByTestId('pricing');
  await expect(facts).toContainText('$9.00 / month');
  await expect(page.getByTestId('billing')).toHaveText('Membership, billed monthly · 14-day free trial');

  // As saved, after a reload.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Billing' }).getByRole('radio', { name: /Membership/ })).toBeChecked();
  await expect(page.getByRole('group', { name: 'Interval' }).getByRole('radio', { name: /Monthly/ })).toBeChecked();
  await expect(page.getByLabel('Free trial (days, optional)')).toHaveValue('14');
  await expectAccessible(page, 'listing-membership');
  await screenshots(page, 'listing-membership');

  await page.getByRole('button', { name: 'Publish' }).first().click();
  await expect(page.locator('.page-head .badge')).toHaveText('published');
  // Published: the billing is frozen (draft only).
  await expect(page.getByRole('group', { name: 'Billing' }).getByRole('radio', { name: /One-time/ })).toBeDisabled();
  await expect(page.getByLabel('Free trial (days, optional)')).toBeDisabled();

  // The listings screen says the price per period.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Listings' }).click();
  await expect(page.getByRole('row', { name: /Moss monthly letters/ })).toContainText('$9.00 / month');

  // A yearly listing, through the API.
  const created = await request.post('/v1/listings', {
    headers: auth(),
    data: {
      title: 'Moss yearbook',
      price: 9000,
      billing: 'membership',
      interval: 'year',
      deliverables: [{ type: 'text', value: 'The yearbook is in your library.' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  yearlyId = (await created.json()).id;
  const published = await request.post(`/v1/listings/${yearlyId}/publish`, { headers: auth() });
  expect(published.status(), await published.text()).toBe(200);
});

test('real memberships: bought through the sandbox, moved through renewals', async ({ browser, baseURL, request }) => {
  const shopper = await browser.newContext({ baseURL });
  const shop = await shopper.newPage();
  members.ada = await buy(request, shop, monthlyId, ada);
  members.lin = await buy(request, shop, monthlyId, lin);
  members.grace = await buy(request, shop, yearlyId, grace);
  await shopper.close();

  // Ada: the trial ends paid, then a renewal paid.
  expect((await advance(request, members.ada, 'paid')).status).toBe('active');
  expect((await advance(request, members.ada, 'paid')).status).toBe('active');
  // Lin: the trial ends paid, then the renewal fails.
  expect((await advance(request, members.lin, 'paid')).status).toBe('active');
  expect((await advance(request, members.lin, 'failed')).status).toBe('past_due');
});

test('the Memberships screen: amounts per period, next steps, the status filter, the buyer search', async () => {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Memberships' }).click();
  await expect(page).toHaveURL(/\/console\/memberships$/);
  await expect(page.getByRole('heading', { name: 'Memberships', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Memberships' });
  const row = (email: string) => table.getByRole('row').filter({ has: page.getByRole('link', { name: email }) });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(row(ada)).toContainText('Moss monthly letters');
  await expect(row(ada)).toContainText('Active');
  await expect(row(ada)).toContainText('$9.00 / month');
  await expect(row(ada)).toContainText('Renews');
  await expect(row(lin)).toContainText('Past due');
  await expect(row(lin)).toContainText('failed; retrying');
  await expect(row(grace)).toContainText('Moss yearbook');
  await expect(row(grace)).toContainText('$90.00 / year');
  await expect(row(grace)).toContainText('Active');
  await expectAccessible(page, 'memberships');
  await screenshots(page, 'memberships');

  // The status filter.
  await page.getByLabel('Status').selectOption('PAST_DUE');
  await expect(page).toHaveURL(/status=PAST_DUE/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(row(lin)).toBeVisible();
  await page.getByLabel('Status').selectOption('TRIALING');
  await expect(page.getByText('No membership is trialing.')).toBeVisible();
  await page.getByLabel('Status').selectOption('');

  // The buyer search: an email as typed (any case), a whole email only.
  const search = page.getByRole('searchbox', { name: 'Buyer email' });
  await search.fill(grace.toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(row(grace)).toBeVisible();
  await search.fill('grace');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(search).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: search }).locator('.error')).toHaveText('Type the buyer’s whole email address, such as ada@example.com.');
  await expectAccessible(page, 'memberships-search-refused');
  await screenshots(page, 'memberships-search-refused');
  await search.fill(`nobody-${stamp}@example.com`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(`nobody-${stamp}@example.com has no membership.`)).toBeVisible();
  await search.fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(table.getByRole('row')).toHaveCount(4);
});

test('a membership’s screen: its facts in words and its orders with their billing reasons', async () => {
  await page.getByRole('table', { name: 'Memberships' }).getByRole('link', { name: ada }).click();
  await expect(page).toHaveURL(new RegExp(`/console/memberships/${members.ada}$`));
  await expect(page.getByRole('heading', { name: `Membership of ${ada}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('membership-status')).toContainText('Paid up: it renews on');
  await expect(page.getByTestId('membership-status')).toContainText('for $9.00');
  await expect(page.getByTestId('membership-amount')).toHaveText('$9.00 / month');
  const orders = page.getByRole('table', { name: 'Orders' });
  // Newest first: two renewals, then the trial's start.
  await expect(orders.getByRole('row')).toHaveCount(4);
  await expect(orders.getByRole('row').nth(1)).toContainText('Renewal');
  await expect(orders.getByRole('row').nth(1)).toContainText('$9.00');
  await expect(orders.getByRole('row').nth(3)).toContainText('Start of a membership with a free trial');
  await expect(orders.getByRole('row').nth(3)).toContainText('$0.00');
  await expectAccessible(page, 'membership');
  await screenshots(page, 'membership');

  // A renewal order: its billing reason and its membership.
  await orders.getByRole('row').nth(1).getByRole('link').click();
  await expect(page).toHaveURL(/\/console\/orders\/ord_/);
  await expect(page.getByTestId('order-billing-reason')).toHaveText('Renewal');
  await expect(page.getByTestId('order-membership')).toContainText('$9.00 / month');
  await expect(page.getByTestId('order-membership')).toContainText('Active');
  await expect(page.getByRole('region', { name: 'Deliverables' })).toContainText('A renewal: the buyer keeps the access of the membership’s first order');
  await expectAccessible(page, 'order-renewal');
  await screenshots(page, 'order-renewal');
  await page.getByTestId('order-membership').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/console/memberships/${members.ada}$`));

  // Grace's first order was paid at checkout: the first payment of a membership.
  await page.goto(`/console/memberships/${members.grace}`);
  const first = page.getByRole('table', { name: 'Orders' }).getByRole('row').nth(1);
  await expect(first).toContainText('First payment of a membership');
  await expect(first).toContainText('$90.00');
  await first.getByRole('link').click();
  await expect(page.getByTestId('order-billing-reason')).toHaveText('First payment of a membership');
  await expect(page.getByTestId('order-membership')).toContainText('$90.00 / year');
});

test('cancel at the period’s end, resume, a resume refused in words once it ended, cancel now', async ({ request }) => {
  await page.goto(`/console/memberships/${members.grace}`);
  const cancelForm = page.getByRole('form', { name: 'Cancel the membership' });
  const when = cancelForm.getByRole('group', { name: 'When should it end?' });
  await expect(when.getByRole('radio', { name: /At the end of the period/ })).toBeChecked();
  await expectAccessible(page, 'membership-cancel');

  // Dismissed: nothing happens.
  dismissNext = true;
  await cancelForm.getByRole('button', { name: 'Cancel membership' }).click();
  expect(dialogs.at(-1)).toContain(`Cancel ${grace}’s membership of Moss yearbook?`);
  await expect(page.locator('.page-head')).toContainText('Active');

  // Accepted: canceled, access until the period's end.
  await cancelForm.getByRole('button', { name: 'Cancel membership' }).click();
  expect(dialogs.at(-1)).toContain('they keep access until then');
  await expect(page.getByRole('status').filter({ hasText: 'Membership canceled: it will not renew.' })).toBeVisible();
  await expect(page.locator('.page-head')).toContainText('Canceled');
  await expect(page.getByTestId('membership-status')).toContainText('the buyer keeps access until then');
  await expectAccessible(page, 'membership-canceled');
  await screenshots(page, 'membership-canceled');

  await page.getByRole('button', { name: 'Resume membership' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Membership resumed: it renews as before.' })).toBeVisible();
  await expect(page.locator('.page-head')).toContainText('Active');

  // Canceled again, then ended elsewhere (the API) while this page still offers Resume.
  await cancelForm.getByRole('button', { name: 'Cancel membership' }).click();
  await expect(page.locator('.page-head')).toContainText('Canceled');
  const ended = await request.post(`/v1/memberships/${members.grace}/cancel`, { headers: auth(), data: { at_period_end: false } });
  expect(ended.status(), await ended.text()).toBe(200);
  await page.getByRole('button', { name: 'Resume membership' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'This membership can no longer be resumed: its paid period is over. The buyer can buy Moss yearbook again from its product page.',
  );
  // The page then shows it as it is.
  await expect(page.locator('.page-head')).toContainText('Ended');
  await expect(page.getByTestId('membership-status')).toContainText('because it was canceled');
  await expect(page.getByRole('button', { name: 'Resume membership' })).toHaveCount(0);
  await expectAccessible(page, 'membership-resume-refused');
  await screenshots(page, 'membership-resume-refused');

  // Cancel now: Ada's membership ends at once.
  await page.goto(`/console/memberships/${members.ada}`);
  await page.getByRole('group', { name: 'When should it end?' }).getByRole('radio', { name: /Now/ }).check();
  await page.getByRole('button', { name: 'Cancel membership' }).click();
  expect(dialogs.at(-1)).toContain(`End ${ada}’s membership of Moss monthly letters now?`);
  await expect(page.getByRole('status').filter({ hasText: 'Membership ended: nothing more is charged.' })).toBeVisible();
  await expect(page.locator('.page-head')).toContainText('Ended');
  await expect(page.getByText('An ended membership cannot be resumed.')).toBeVisible();
  await expectAccessible(page, 'membership-ended');
  await screenshots(page, 'membership-ended');
});

test('the customer screen lists the customer’s memberships; home shows MRR and active memberships', async () => {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('link', { name: lin, exact: true }).click();
  await expect(page).toHaveURL(/\/console\/customers\/cus_/);
  await expect(page.getByRole('heading', { name: lin, level: 1 })).toBeVisible();
  const theirs = page.getByRole('table', { name: `Memberships of ${lin}` });
  await expect(theirs.getByRole('row')).toHaveCount(2);
  await expect(theirs).toContainText('Moss monthly letters');
  await expect(theirs).toContainText('Past due');
  await expect(theirs).toContainText('$9.00 / month');
  await expectAccessible(page, 'customer');
  await screenshots(page, 'customer');
  await theirs.getByRole('link', { name: 'Moss monthly letters' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/memberships/${members.lin}$`));
  await expect(page.getByTestId('membership-status')).toContainText('could not be charged');
  await expect(page.getByRole('button', { name: 'End membership now' })).toBeVisible();
  await expectAccessible(page, 'membership-past-due');
  await screenshots(page, 'membership-past-due');

  // Home: Lin's past-due membership is the one still counted ($9.00 a month).
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('mrr')).toHaveText('$9.00');
  await expect(page.getByTestId('active-memberships')).toHaveText('1');
  await expectAccessible(page, 'home-memberships');
  await screenshots(page, 'home-memberships');
  expect(consoleErrors).toEqual([]);
});

test('another account’s membership is not found; an account without memberships is told how to start', async ({ browser, baseURL, request }) => {
  const other = await browser.newContext({ baseURL });
  const p = await other.newPage();
  await signUpAndConnect(p, request, `other-${stamp}@example.com`, 'Other Shop');
  // Home says nothing of memberships before the first one.
  await expect(p.getByTestId('mrr')).toHaveCount(0);
  await p.goto(`/console/memberships/${members.lin}`);
  await expect(p.getByRole('heading', { name: 'Membership not found', level: 1 })).toBeVisible();
  await expect(p.getByText(`No membership of your account has the id ${members.lin}.`)).toBeVisible();
  await p.goto('/console/memberships');
  await expect(p.getByText('No memberships yet.')).toBeVisible();
  await expect(p.getByText(ada)).toHaveCount(0);
  await expectAccessible(p, 'memberships-empty');
  await screenshots(p, 'memberships-empty');
  await other.close();
});
