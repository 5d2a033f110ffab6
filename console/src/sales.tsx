// The pieces of a sales view shared by the home dashboard and a listing's
// screen: the range control, a total with its change, and the chart in its
// accessible frame (uPlot loads lazily with it: scripts/check-size.mjs).
import { lazy, Suspense, type ReactNode } from 'react';
import { ranges, trend, type Range } from './dashboard';
import { Link, navigate, useLocation } from './router';
import { Loading, withQuery } from './ui';
import type { Bucket } from './chart';

const SalesChart = lazy(() => import('./chart'));

/** The range control: three links that keep the choice in the URL (?range=). */
export function RangeControl({ current }: { current: Range['key'] }) {
  const { path, query } = useLocation();
  return (
    <nav className="segmented" aria-label="Range">
      {ranges.map((r) => (
        <Link
          key={r.key}
          to={withQuery(path, query, { range: r.key === '30d' ? '' : r.key })}
          aria-current={r.key === current ? 'true' : undefined}
          onClick={(e) => {
            e.preventDefault();
            navigate(withQuery(path, query, { range: r.key === '30d' ? '' : r.key }), true);
          }}
        >
          {r.label}
        </Link>
      ))}
    </nav>
  );
}

export function Stat({ label, value, change, testid, previous, note }: { label: string; value: ReactNode; change?: string; testid: string; previous?: string; note?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testid}>{value}</dd>
      {change !== undefined && (
        <dd className={`change change-${trend(change)}`} data-testid={`${testid}-change`}>
          {change}
          <span className="sr-only"> compared with {previous}</span>
        </dd>
      )}
      {note && <dd className="stat-note">{note}</dd>}
    </div>
  );
}


/** The chart of revenue and orders, inside the element with role="img" whose name says what it shows. */
export function ChartFigure({ name, buckets, currency, monthly }: { name: string; buckets: Bucket[]; currency: string | null | undefined; monthly: boolean }) {
  return (
    <figure className="chart">
      <div className="chart-legend" aria-hidden="true">
        <span className="legend-key">Revenue</span>
        <span className="legend-key legend-orders">Orders</span>
      </div>
      <div role="img" aria-label={name} className="chart-frame">
        <Suspense fallback={<Loading what="Drawing the chart" />}>
          <SalesChart buckets={buckets} currency={currency} monthly={monthly} />
        </Suspense>
      </div>
    </figure>
  );
}
