// Shared pieces of the screens: page frame, fields with their errors,
// money and time, loading and empty states, paging, copy button.
import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { Problem } from './problems';

export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Commerce console`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        {actions && <div className="row">{actions}</div>}
      </div>
      {children}
    </>
  );
}

/** The message of the problems whose param names this field. */
export function errorFor(problems: Problem[], param: string): string | undefined {
  return problems.find((p) => p.param === param)?.message;
}

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string;
  param: string;
  problems: Problem[];
  value: string;
  onValue: (v: string) => void;
  hint?: string;
  /** A narrow field, for an amount, a count or a date. */
  short?: boolean;
};

export function Field({ label, param, problems, value, onValue, hint, short, ...rest }: FieldProps) {
  const id = useId();
  const err = errorFor(problems, param);
  const describedBy = [hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={short ? 'field short' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={param}
        value={value}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy}
        {...rest}
      />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {err && (
        <small id={`${id}-error`} className="error">
          {err}
        </small>
      )}
    </div>
  );
}

export function TextArea({
  label,
  param,
  problems,
  value,
  onValue,
  maxLength,
  rows = 4,
}: {
  label: string;
  param: string;
  problems: Problem[];
  value: string;
  onValue: (v: string) => void;
  maxLength?: number;
  rows?: number;
}) {
  const id = useId();
  const err = errorFor(problems, param);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={param}
        rows={rows}
        value={value}
        maxLength={maxLength}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={err ? true : undefined}
        aria-describedby={err ? `${id}-error` : undefined}
      />
      {err && (
        <small id={`${id}-error`} className="error">
          {err}
        </small>
      )}
    </div>
  );
}

export function Select<T extends string>({
  label,
  param,
  problems,
  value,
  onValue,
  options,
}: {
  label: string;
  param: string;
  problems: Problem[];
  value: T;
  onValue: (v: T) => void;
  options: { value: T; label: string }[];
}) {
  const id = useId();
  const err = errorFor(problems, param);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={param}
        value={value}
        onChange={(e) => onValue(e.target.value as T)}
        aria-invalid={err ? true : undefined}
        aria-describedby={err ? `${id}-error` : undefined}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {err && (
        <small id={`${id}-error`} className="error">
          {err}
        </small>
      )}
    </div>
  );
}

/** A choice among a few options: radio buttons in a fieldset, with its error (param) and hint. */
export function Choice<T extends string>({
  legend,
  param,
  problems,
  value,
  onValue,
  options,
  disabled,
  hint,
}: {
  legend: string;
  param: string;
  problems: Problem[];
  value: T;
  onValue: (v: T) => void;
  options: { value: T; label: string; hint?: string; disabled?: boolean }[];
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  const err = errorFor(problems, param);
  const describedBy = [hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="choice" disabled={disabled} aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="check">
          <input
            type="radio"
            name={`${id}-${param}`}
            value={o.value}
            checked={value === o.value}
            disabled={o.disabled}
            onChange={() => onValue(o.value)}
          />
          <span>
            {o.label}
            {o.hint && <small className="muted"> · {o.hint}</small>}
          </span>
        </label>
      ))}
      {hint && <small id={`${id}-hint`} className="muted">{hint}</small>}
      {err && (
        <small id={`${id}-error`} className="error">
          {err}
        </small>
      )}
    </fieldset>
  );
}

/** An on/off setting: a checkbox with the switch role, its label beside it, and a hint. */
export function Switch({
  label: text,
  checked,
  onChecked,
  hint,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChecked: (on: boolean) => void;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field switch">
      <label className="check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => onChecked(e.target.checked)}
        />
        <span>{text}</span>
      </label>
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}

/** The problems no field of the form shows (params not in `shown`). */
export function FormErrors({ problems, shown = [] }: { problems: Problem[]; shown?: string[] }) {
  const rest = problems.filter((p) => !p.param || !shown.includes(p.param));
  if (!rest.length) return null;
  return (
    <div className="alert" role="alert">
      {rest.map((p, i) => (
        <p key={i}>
          {p.message}
          {p.param ? ` (${p.param})` : ''}
        </p>
      ))}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="notice" role="status">
      {children}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

const zeroDecimal = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

export function decimalsOf(currency: string | null | undefined): number {
  return currency && zeroDecimal.has(currency.toLowerCase()) ? 0 : 2;
}

/** What an amount shows before the account has a currency (the processor gives it). */
export const noCurrency = '—';

/**
 * An amount in the smallest unit, as people write it in the browser's
 * locale with its currency: 2900 usd → "$29.00", 2900 jpy → "¥2,900".
 * Without a currency (before the processor is connected) it is "—", never
 * a bare number: <Money> adds the hint that says how to get one.
 */
export function formatMoney(amount: number, currency: string | null | undefined): string {
  if (!currency) return noCurrency;
  const d = decimalsOf(currency);
  const value = amount / 10 ** d;
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: d,
      maximumFractionDigits: d,
    }).format(value);
  } catch {
    return `${value.toFixed(d)} ${currency.toUpperCase()}`;
  }
}

/** An amount with its currency; before a currency exists, "—" with the hint to connect the processor. */
export function Money({ amount, currency }: { amount: number; currency: string | null | undefined }) {
  if (currency) return <>{formatMoney(amount, currency)}</>;
  return (
    <span className="no-currency" title="No currency yet: connect the payment processor to set it">
      <span aria-hidden="true">{noCurrency}</span>
      <span className="sr-only">No currency yet: connect the payment processor to set it</span>
    </span>
  );
}

/** A count in the browser's locale: 12345 → "12,345". */
export function formatCount(n: number): string {
  return new Intl.NumberFormat().format(n);
}

/** A whole percentage in the browser's locale: 25 → "25%" (en), "25 %" (fr). */
export function formatPercent(n: number): string {
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(n / 100);
}

/** The browser locale's decimal separator ("." or ","). */
function localeDecimal(): string {
  return new Intl.NumberFormat().formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/**
 * An amount in major units as a seller types it → the smallest unit of the
 * currency, by its exponent: "12.50" usd → 1250, "2,900" jpy → 2900,
 * "12,50" → 1250, "1,250.00" → 125000. NaN when it is not an amount, or
 * has more decimals than the currency (yen have none). Computed on the
 * digits, never through floating point.
 */
export function parseMoney(text: string, currency: string | null | undefined): number {
  const d = decimalsOf(currency);
  const t = text.replace(/[\s\u00a0\u202f']/g, '');
  if (!/^[\d.,]*\d[\d.,]*$/.test(t)) return NaN;
  const dots = t.split('.').length - 1;
  const commas = t.split(',').length - 1;
  let dec: string | null = null;
  if (dots && commas) dec = t.lastIndexOf('.') > t.lastIndexOf(',') ? '.' : ',';
  else if (dots + commas === 1) {
    const sep = dots ? '.' : ',';
    // One separator: the locale's decimal one is decimal; another one
    // followed by exactly three digits groups thousands ("1,250" in en).
    const after = t.length - t.indexOf(sep) - 1;
    dec = sep === localeDecimal() || after !== 3 ? sep : null;
  }
  let whole = t;
  let frac = '';
  if (dec) {
    const i = t.lastIndexOf(dec);
    whole = t.slice(0, i);
    frac = t.slice(i + 1);
  }
  whole = whole.replace(/[.,]/g, '');
  frac = frac.replace(/0+$/, '');
  if (!/^\d*$/.test(frac) || frac.length > d || whole.length > 12) return NaN;
  return Number(whole || '0') * 10 ** d + Number((frac + '0'.repeat(d)).slice(0, d) || '0');
}

/** An amount in the smallest unit as the text of an input: 1250 usd → "12.50". */
export function moneyText(amount: number, currency: string | null | undefined): string {
  return (amount / 10 ** decimalsOf(currency)).toFixed(decimalsOf(currency));
}

/** An example amount for a hint or an error: "19.99", or "2900" for yen. */
export function moneyExample(currency: string | null | undefined): string {
  return decimalsOf(currency) === 0 ? '2900' : '19.99';
}

/** An RFC 3339 time → a datetime-local value in UTC (the console shows times in UTC). */
export function timeInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 16);
}

/** A datetime-local value, read as UTC → an RFC 3339 time (null when empty or not a time). */
export function timeValue(input: string): string | null {
  if (!input) return null;
  const d = new Date(`${input}:00Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

const dateTimeFormat = () =>
  new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/** A time as people read it in the browser's locale and time zone, with the zone: "26 Nov 2026, 15:41 UTC" (en-GB). */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFormat().format(d);
}

/** A date in the browser's locale: "26 Nov 2026" (en-GB), "Nov 26, 2026" (en-US). utc reads a UTC date (YYYY-MM-DD) as such. */
export function formatDate(value: string | Date, opts: { utc?: boolean; long?: boolean } = {}): string {
  const d = typeof value === 'string' ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: opts.long ? 'long' : 'short',
    day: 'numeric',
    timeZone: opts.utc ? 'UTC' : undefined,
  }).format(d);
}

/** A time in the browser's locale (formatTime), its RFC 3339 value in the title; "—" for none. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <time dateTime={value} title={value}>
      {formatTime(value)}
    </time>
  );
}

export function Badge({ value }: { value: string }) {
  return <span className={`badge badge-${value.toLowerCase()}`}>{value.toLowerCase().replace(/_/g, ' ')}</span>;
}

/** An event type as the API writes it: ORDER_DISPUTE_CLOSED is order.dispute_closed, LICENSE_KEY_ACTIVATED license_key.activated. */
export function eventName(type: string): string {
  const s = type.toLowerCase();
  return s.startsWith('license_key_') ? 'license_key.' + s.slice('license_key_'.length) : s.replace('_', '.');
}

export function label(value: string): string {
  const s = value.toLowerCase().replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Forward paging through a connection: a stack of cursors. */
export function useCursor(resetKey: string) {
  const [stack, setStack] = useState<(string | null)[]>([null]);
  useEffect(() => setStack([null]), [resetKey]);
  const after = stack[stack.length - 1];
  return {
    after,
    page: stack.length,
    next: (cursor: string | null | undefined) => cursor && setStack((s) => [...s, cursor]),
    prev: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
  };
}

export function Pager({
  page,
  hasNext,
  onNext,
  onPrev,
}: {
  page: number;
  hasNext: boolean;
  onNext: () => void;
  onPrev: () => void;
}) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={onPrev} disabled={page === 1}>
        Previous page
      </button>
      <span>Page {page}</span>
      <button type="button" onClick={onNext} disabled={!hasNext}>
        Next page
      </button>
    </nav>
  );
}

export function CopyButton({ text, what = 'Copy', label: name, small }: { text: string; what?: string; label?: string; small?: boolean }) {
  const [done, setDone] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
    } catch {
      setDone(false);
    }
  }
  return (
    <button type="button" onClick={copy} className={small ? 'secondary small' : 'secondary'} aria-label={name ? `${done ? 'Copied' : what}: ${name}` : undefined}>
      {done ? 'Copied' : what}
    </button>
  );
}

/** A secret shown once (API key, webhook signing secret). */
export function Secret({ title, value, children }: { title: string; value: string; children?: ReactNode }) {
  return (
    <section className="secret" aria-label={title}>
      <h2>{title}</h2>
      {children}
      <p className="secret-value">
        <code data-testid="secret">{value}</code>
      </p>
      <CopyButton text={value} />
    </section>
  );
}

export function Progress({ value, label: text }: { value: number; label: string }) {
  return (
    <div className="progress">
      <progress max={100} value={Math.round(value * 100)} aria-label={text} />
      <span>{Math.round(value * 100)}%</span>
    </div>
  );
}

export function ProblemBanner({ problems }: { problems: Problem[] }) {
  return <FormErrors problems={problems} />;
}

/**
 * A search field (type="search") whose text narrows a list through the URL:
 * it calls onSearch with the trimmed text 300 ms after typing stops (or at
 * once on Enter), so a reload keeps the search. maxLength bounds it as the
 * service does (CONTRACT §15, 1 to 200 characters).
 */
export function SearchField({
  label: text,
  value,
  onSearch,
  hint,
  problems = [],
}: {
  label: string;
  value: string;
  onSearch: (q: string) => void;
  hint?: string;
  problems?: Problem[];
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  // The URL changed from outside (back, a link): show its search.
  useEffect(() => setDraft(value), [value]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  function change(v: string) {
    setDraft(v);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      if (v.trim() !== value) latest.current(v.trim());
    }, 300);
  }
  const err = errorFor(problems, 'query');
  const describedBy = [hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field search">
      <label htmlFor={id}>{text}</label>
      <input
        id={id}
        type="search"
        name="query"
        value={draft}
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            window.clearTimeout(timer.current);
            latest.current(draft.trim());
          }
        }}
      />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {err && (
        <small id={`${id}-error`} className="error">
          {err}
        </small>
      )}
    </div>
  );
}

/** The URL of a console path with its query changed: set (non-empty) or removed (empty) names. */
export function withQuery(path: string, query: URLSearchParams, changes: Record<string, string>): string {
  const q = new URLSearchParams(query);
  for (const [k, v] of Object.entries(changes)) {
    if (v) q.set(k, v);
    else q.delete(k);
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The address of a CSV export (CONTRACT §23) with a list's filters: empty ones are left out. */
export function exportURL(path: string, params: Record<string, string>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
