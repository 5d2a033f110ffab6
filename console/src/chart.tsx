// The sales chart: revenue (bars' line, left axis, in the currency) and
// orders (right axis, counts) per bucket, drawn by uPlot. This module is
// imported lazily (Home and Listing load it with React.lazy), so uPlot is
// not part of the first screen's JavaScript (scripts/check-size.mjs).
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { decimalsOf, formatCount, formatMoney } from './ui';

export type Bucket = { start: string; revenue: number; orders: number };

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The date of a bucket's start (UTC) for an axis tick or the hover readout. */
function tickText(seconds: number, monthly: boolean): string {
  return new Intl.DateTimeFormat(undefined, monthly ? { month: 'short', year: 'numeric', timeZone: 'UTC' } : { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(seconds * 1000),
  );
}

/**
 * The chart of a sales series. The element that holds it is the
 * accessible image (role="img", named by the caller): uPlot's canvas says
 * nothing to a screen reader, the name and the totals beside it do. Once
 * uPlot has drawn, data-points on that element is the number of points it
 * drew per series (the buckets), which the browser tests read.
 */
export default function SalesChart({ buckets, currency, monthly }: { buckets: Bucket[]; currency: string | null | undefined; monthly: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const d = decimalsOf(currency);
    const xs = buckets.map((b) => Date.parse(`${b.start}T00:00:00Z`) / 1000);
    const revenue = buckets.map((b) => b.revenue / 10 ** d);
    const orders = buckets.map((b) => b.orders);
    const accent = cssVar('--accent', '#1f5fbf');
    const second = cssVar('--chart-orders', '#c0651a');
    const muted = cssVar('--muted', '#5b6470');
    const grid = cssVar('--line', '#d9dde3');
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const width = () => Math.max(240, el.clientWidth);
    const opts: uPlot.Options = {
      width: width(),
      height: el.clientWidth < 500 ? 200 : 260,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 7 } },
      scales: { x: { time: false }, money: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] }, count: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
      axes: [
        {
          ...axis,
          // Ticks on bucket starts only (a linear scale would put them
          // between months and label two ticks alike), as many as fit:
          // every step-th bucket, counted back from the last.
          splits: (u) => {
            const room = Math.max(1, Math.floor((u.width - 110) / (monthly ? 84 : 64)));
            const step = Math.max(1, Math.ceil(xs.length / room));
            return xs.filter((_, i) => (xs.length - 1 - i) % step === 0);
          },
          values: (_u, ticks) => ticks.map((t) => tickText(t, monthly)),
        },
        {
          ...axis,
          scale: 'money',
          size: 70,
          values: (_u, ticks) => ticks.map((t) => formatMoney(Math.round(t * 10 ** d), currency)),
        },
        {
          ...axis,
          scale: 'count',
          side: 1,
          grid: { show: false },
          size: 40,
          values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatCount(t) : '')),
        },
      ],
      series: [
        {},
        { label: 'Revenue', scale: 'money', stroke: accent, width: 2, fill: `${accent}1f`, points: { show: buckets.length <= 31, size: 5 } },
        { label: 'Orders', scale: 'count', stroke: second, width: 2, dash: [6, 4], points: { show: buckets.length <= 31, size: 5 } },
      ],
      hooks: {
        ready: [(u) => el.setAttribute('data-points', String(u.data[0].length))],
      },
    };
    const plot = new uPlot(opts, [xs, revenue, orders], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: el.clientWidth < 500 ? 200 : 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      el.removeAttribute('data-points');
    };
  }, [buckets, currency, monthly]);
  return <div ref={box} className="chart-canvas" />;
}
