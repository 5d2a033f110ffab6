// GraphQL errors carry the problem document under extensions: code, param
// (the input field in REST notation, such as deliverables[0].value).
import type { CombinedError } from 'urql';

export type Problem = { message: string; code?: string; param?: string | null; status?: number };

function normParam(p: unknown): string | null {
  if (typeof p !== 'string' || p === '') return null;
  // GraphQL names (input.displayName) and REST names (display_name) alike.
  return p.replace(/^input\./, '').replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

export function toProblems(errors: unknown): Problem[] {
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => {
    const x = e as { message?: string; extensions?: Record<string, unknown> };
    const ext = x.extensions ?? {};
    return {
      message: x.message || 'Something went wrong.',
      code: typeof ext.code === 'string' ? ext.code : undefined,
      param: normParam(ext.param),
      status: typeof ext.status === 'number' ? ext.status : undefined,
    };
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
