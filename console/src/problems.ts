// GraphQL errors carry the problem document under extensions: code, param
// (the input field in REST notation, such as deliverables[0].value).
import type { CombinedError } from 'urql';

export type Problem = { message: string; code?: string; param?: string | null; status?: number };

function normParam(p: unknown): string | null {
  if (typeof p !== 'string' || p === '') return null;
  // GraphQL names (input.displayName) and REST names (display_name) alike.
  return p.replace(/^input\./, '').replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

// A validation_error lists every failed field under extensions.errors
// ({param, detail}); each becomes a problem of its own, shown at its field.
export function toProblems(errors: unknown): Problem[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e) => {
    const x = e as { message?: string; extensions?: Record<string, unknown> };
    const ext = x.extensions ?? {};
    const base = {
      code: typeof ext.code === 'string' ? ext.code : undefined,
      status: typeof ext.status === 'number' ? ext.status : undefined,
    };
    const fields = Array.isArray(ext.errors) ? (ext.errors as { param?: unknown; detail?: unknown }[]) : [];
    if (fields.length > 1) {
      return fields.map((f) => ({
        ...base,
        message: typeof f.detail === 'string' && f.detail ? f.detail : x.message || 'Something went wrong.',
        param: normParam(f.param),
      }));
    }
    return [{ ...base, message: x.message || 'Something went wrong.', param: normParam(ext.param) }];
  });
}

export function problemsOf(error: CombinedError | undefined | null): Problem[] {
  if (!error) return [];
  if (error.graphQLErrors.length) {
    return toProblems(error.graphQLErrors.map((g) => ({ message: g.message, extensions: g.extensions })));
  }
  if (error.networkError) return [{ message: 'The service could not be reached. Check your connection and try again.' }];
  return [{ message: error.message }];
}

export function isAuthError(error: CombinedError | undefined | null): boolean {
  return problemsOf(error).some((p) => p.code === 'authentication_error');
}
