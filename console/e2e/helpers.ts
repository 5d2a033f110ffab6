import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const screenshotsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

const usedMail = new Set<string>();

/** The passcode of the newest sandbox mail to `email` not read before (the mailbox is /sandbox/mail, newest first). */
export async function passcodeFor(request: APIRequestContext, email: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const box = await (await request.get('/sandbox/mail')).text();
        const row = box.split('<tr>').find((r) => r.includes(`<td>${email}</td>`));
        const href = row?.match(/href="(\/sandbox\/mail\/[^"]+)"/)?.[1];
        if (!href || usedMail.has(href)) return '';
        const msg = (await (await request.get(href)).text()).replace(/<[^>]*>/g, ' ');
        code = msg.match(/passcode is:\s*(\d{6})/)?.[1] ?? '';
        if (code) usedMail.add(href);
        return code;
      },
      { message: `a passcode mailed to ${email}`, timeout: 20_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `axe violations on ${screen}`).toEqual([]);
}

/** Screenshots of the current screen at desktop width and at 375 px. */
export async function screenshots(page: Page, name: string) {
  mkdirSync(screenshotsDir, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(screenshotsDir, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  const wide = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    const excess = document.documentElement.scrollWidth - limit;
    if (excess <= 0) return [];
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > limit + 1)
      .filter((e) => {
        // Inside a scroll container only what escapes it (absolute positioning) counts.
        if (getComputedStyle(e).position === 'absolute' || getComputedStyle(e).position === 'fixed') return true;
        for (let a = e.parentElement; a; a = a.parentElement) {
          if (getComputedStyle(a).overflowX !== 'visible') return false;
        }
        return true;
      })
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`);
    return [`${excess} px too wide`, ...culprits];
  });
  expect(wide, `${name} scrolls sideways at 375 px`).toEqual([]);
  await page.screenshot({ path: join(screenshotsDir, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(size);
}

/** Signs a new seller up through the console and connects the sandbox processor; returns the API key. */
export async function signUpAndConnect(page: Page, request: APIRequestContext, email: string, store: string): Promise<string> {
  await page.goto('/console/');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a passcode' }).click();
  await page.getByLabel('Passcode').fill(await passcodeFor(request, email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Store name').fill(store);
  await page.getByRole('button', { name: 'Create store' }).click();
  const key = (await page.getByTestId('secret').textContent())!;
  await page.getByRole('button', { name: 'I stored my key, continue' }).click();
  await page.getByRole('button', { name: 'Connect the processor' }).click();
  await page.getByRole('button', { name: 'Complete onboarding' }).click();
  await expect(page.getByText('Processor connected: onboarding is complete.')).toBeVisible();
  return key;
}
