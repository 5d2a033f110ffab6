import { defineConfig } from '@playwright/test';

// Browser tests of the console against a running service: make test runs
// them (console/browser_test.go) with COMMERCE_BASE_URL and
// CHROMIUM=/usr/bin/chromium (Debian's; Playwright downloads no browser).
const baseURL = process.env.COMMERCE_BASE_URL;
if (!baseURL) throw new Error('COMMERCE_BASE_URL must name the running service, such as http://127.0.0.1:8080');

export default defineConfig({
  testDir: './e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    // The console formats money, dates and times in the browser's locale and
    // time zone: the specs pin both, so what they expect is written once.
    locale: 'en-US',
    timezoneId: 'UTC',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
