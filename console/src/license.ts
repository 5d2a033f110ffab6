// The bounds of license terms (CONTRACT §20), checked in the browser so a
// person reads what to type. The API checks them too, but its messages are
// written for its callers ("activation_limit must be 1 to 10,000 devices
// per key (or null for any number)."): in the console they are
// only a last line.
import type { Problem } from './problems';

export const maxActivationLimit = 10_000;
export const maxExpiresAfterDays = 3_650;
export const keyPrefixPattern = /^[A-Z0-9]{0,12}$/;

export const limitMessage = 'Devices per key must be a whole number from 1 to 10,000; leave it empty for any number of devices.';
export const keyLimitMessage = 'Devices allowed must be a whole number from 1 to 10,000; leave it empty for any number of devices.';
export const daysMessage = 'Keys expire after a whole number of days from 1 to 3,650 (ten years); leave it empty for keys that never expire.';
export const prefixMessage =
  'The key prefix can be up to 12 letters A–Z and digits 0–9, nothing else (the dash after it is added for you); leave it empty for keys without a prefix.';

/**
 * A typed whole number from min to max ("1,000", "1.000" and "1 000" read 1000), or
 * null when the field is empty; anything else adds `message` at `param` to
 * `problems` (and gives null).
 */
export function wholeNumber(text: string, min: number, max: number, param: string, message: string, problems: Problem[]): number | null {
  const t = text.trim();
  if (t === '') return null;
  // Digits, grouped by thousands or not ("1.5" is not a whole number).
  const n = /^\d{1,9}$|^\d{1,3}([,.\s\u00a0\u202f']\d{3})+$/.test(t) ? Number(t.replace(/\D/g, '')) : NaN;
  if (!(n >= min && n <= max)) {
    problems.push({ param, message });
    return null;
  }
  return n;
}

/**
 * The API's refusal of a key's device limit that is within the bounds: the
 * key is active on more devices than that (UpdateLicenseKey). Said for the
 * console's seller, who removes devices on the same page, instead of the
 * API's advice to its callers (DELETE /v1/license-keys/…). `count` is the
 * number of devices the refusal names, or the one the page knows.
 */
export function belowDevicesMessage(count: number, limit: number): string {
  const n = new Intl.NumberFormat();
  const over = count - limit;
  return (
    `This key is active on ${n.format(count)} ${count === 1 ? 'device' : 'devices'}, more than ${n.format(limit)}. ` +
    `Remove ${over === 1 ? 'a device' : `${n.format(over)} devices`} from the list above first, or allow at least ${n.format(count)} devices.`
  );
}
