// The dashboard's ranges and comparisons: which UTC dates a range covers,
// the previous period of the same length, and the change between the two
// in words people read ("+12%", "−3%", "new", "no change").
import type { AnalyticsInterval } from './gql/graphql';
import { formatDate } from './ui';

export type RangeKey = '7d' | '30d' | '12m';

export const ranges: { key: RangeKey; label: string }[] = [
  { key: '7d', label: '7 days' },
  { key: '30d', label: '30 days' },
  { key: '12m', label: '12 months' },
];

export function rangeKey(s: string | null): RangeKey {
  return s === '7d' || s === '12m' ? s : '30d';
}

export type Range = {
  key: RangeKey;
  interval: AnalyticsInterval;
  from: string;
  to: string;
  prevFrom: string;
  prevTo: string;
  /** "Revenue and orders per day, 30 days to 26 Nov 2026": the chart's accessible name. */
  chartName: string;
  /** "the previous 30 days": what the change compares with. */
  previous: string;
};

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(d: Date, n: number): Date {
  const c = new Date(d);
  c.setUTCDate(c.getUTCDate() + n);
  return c;
}

/** The first day of the month n months from d's month (UTC). */
function monthStart(d: Date, n: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
}

/** d moved n months, the day kept where the month has it (31 Mar − 1 month → 28 Feb). */
function addMonths(d: Date, n: number): Date {
  const first = monthStart(d, n);
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d.getUTCDate(), last)));
}

/**
 * The UTC dates of a range ending today: 7 and 30 days by day; 12 months by
 * month, from the first day of the month 11 months back (whole buckets) to
 * today. The previous period has the same length and ends the day before.
 */
export function rangeOf(key: RangeKey, now = new Date()): Range {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const to = day(today);
  const end = formatDate(to, { utc: true });
  if (key === '12m') {
    const from = monthStart(today, -11);
    return {
      key,
      interval: 'MONTH',
      from: day(from),
      to,
      prevFrom: day(monthStart(today, -23)),
      prevTo: day(addMonths(today, -12)),
      chartName: `Revenue and orders per month, 12 months to ${end}`,
      previous: 'the 12 months before',
    };
  }
  const n = key === '7d' ? 7 : 30;
  return {
    key,
    interval: 'DAY',
    from: day(addDays(today, 1 - n)),
    to,
    prevFrom: day(addDays(today, 1 - 2 * n)),
    prevTo: day(addDays(today, -n)),
    chartName: `Revenue and orders per day, ${n} days to ${end}`,
    previous: `the ${n} days before`,
  };
}

/** The change from previous to current, as a relative percentage: "+12%", "−3%"; with no previous value, words. */
export function changeText(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? 'no change' : 'new: none before';
  const ratio = (current - previous) / Math.abs(previous);
  if (Math.abs(ratio) < 0.005) return 'no change';
  const text = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: Math.abs(ratio) < 0.1 ? 1 : 0, signDisplay: 'always' }).format(ratio);
  return text.replace('-', '\u2212');
}

/** A conversion rate ("0.0312") as a percentage: "3.12%"; "—" without views. */
export function rateText(rate: string | null | undefined): string {
  if (rate == null) return '—';
  return new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(Number(rate));
}

/** The change of a conversion rate, in percentage points: "+0.4 pts"; words when either period had no views. */
export function rateChangeText(current: string | null | undefined, previous: string | null | undefined): string {
  if (current == null && previous == null) return 'no views in either period';
  if (previous == null) return 'new: no views before';
  if (current == null) return 'no views this period';
  const points = (Number(current) - Number(previous)) * 100;
  if (Math.abs(points) < 0.005) return 'no change';
  const text = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, signDisplay: 'always' }).format(points);
  return `${text.replace('-', '\u2212')} pts`;
}

/** Whether a change reads as better, worse or neither (for its colour; the text says it too). */
export function trend(text: string): 'up' | 'down' | 'flat' {
  if (text.startsWith('+') || text.startsWith('new')) return 'up';
  if (text.startsWith('\u2212')) return 'down';
  return 'flat';
}
