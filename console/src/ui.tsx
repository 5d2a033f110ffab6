// Shared pieces of the screens: page frame, fields with their errors,
// money and time, loading and empty states, paging, copy button.
import { useEffect, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
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
};

export function Field({ label, param, problems, value, onValue, hint, ...rest }: FieldProps) {
  const id = useId();
  const err = errorFor(problems, param);
  const describedBy = [hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
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

export function formatMoney(amount: number, currency: string | null | undefined): string {
  const d = decimalsOf(currency);
  const value = amount / 10 ** d;
  if (!currency) return value.toFixed(d);
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: d,
      maximumFractionDigits: d,
    }).format(value);
  } catch {
    return `${value.toFixed(d)} ${currency.toUpperCase()}`;
  }
}

/** "19.99" in a currency → 1999 (smallest unit); NaN when it is not a number. */
export function parseMoney(text: string, currency: string | null | undefined): number {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return NaN;
  return Math.round(parseFloat(t) * 10 ** decimalsOf(currency));
}

export function moneyText(amount: number, currency: string | null | undefined): string {
  return (amount / 10 ** decimalsOf(currency)).toFixed(decimalsOf(currency));
}

export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  const d = new Date(value);
  return (
    <time dateTime={value} title={value}>
      {d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC
    </time>
  );
}

export function Badge({ value }: { value: string }) {
  return <span className={`badge badge-${value.toLowerCase()}`}>{value.toLowerCase().replace(/_/g, ' ')}</span>;
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

export function CopyButton({ text, what = 'Copy' }: { text: string; what?: string }) {
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
    <button type="button" onClick={copy} className="secondary">
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
