// Sign up and sign in with an email passcode: the bootstrap use case
// (startBootstrap → verifyBootstrap → completeBootstrap for a new account),
// then signIn turns the verified session into the console's cookie.
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { CompleteBootstrap, SignIn, StartBootstrap, VerifyBootstrap } from '../ops';
import { problemsOf, type Problem } from '../problems';
import { Field, FormErrors, Notice, Secret } from '../ui';

type Step =
  | { name: 'email' }
  | { name: 'code'; sessionId: string; email: string }
  | { name: 'store'; sessionId: string; email: string }
  | { name: 'key'; apiKey: string };

export function SignInScreen({ onSignedIn }: { onSignedIn: () => void }) {
  const [step, setStep] = useState<Step>({ name: 'email' });
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [slug, setSlug] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [busy, setBusy] = useState(false);
  const [, start] = useMutation(StartBootstrap);
  const [, verify] = useMutation(VerifyBootstrap);
  const [, complete] = useMutation(CompleteBootstrap);
  const [, signIn] = useMutation(SignIn);

  useEffect(() => {
    document.title = 'Sign in · Commerce console';
  }, []);

  async function run<T>(fn: () => Promise<{ data?: T; error?: Parameters<typeof problemsOf>[0] }>): Promise<T | undefined> {
    setBusy(true);
    setProblems([]);
    const r = await fn();
    setBusy(false);
    if (r.error) {
      setProblems(problemsOf(r.error));
      return undefined;
    }
    return r.data;
  }

  async function session(sessionId: string): Promise<boolean> {
    const r = await run(() => signIn({ input: { sessionId } }));
    return Boolean(r);
  }

  async function submitEmail(e: FormEvent) {
    e.preventDefault();
    const d = await run(() => start({ input: { email } }));
    if (d?.startBootstrap) setStep({ name: 'code', sessionId: d.startBootstrap.sessionId, email: d.startBootstrap.email });
  }

  async function submitCode(e: FormEvent) {
    e.preventDefault();
    if (step.name !== 'code') return;
    const d = await run(() => verify({ input: { sessionId: step.sessionId, code: code.trim() } }));
    const v = d?.verifyBootstrap;
    if (!v) return;
    if (v.accountCreated) {
      setStep({ name: 'store', sessionId: step.sessionId, email: step.email });
    } else if (await session(step.sessionId)) {
      onSignedIn();
    }
  }

  async function submitStore(e: FormEvent) {
    e.preventDefault();
    if (step.name !== 'store') return;
    const d = await run(() =>
      complete({ input: { sessionId: step.sessionId, displayName, slug: slug.trim() || undefined } }),
    );
    const s = d?.completeBootstrap;
    if (!s) return;
    if (await session(step.sessionId)) setStep({ name: 'key', apiKey: s.apiKey });
  }

  return (
    <main className="auth" id="main">
      <h1>Commerce console</h1>
      {step.name === 'email' && (
        <form onSubmit={submitEmail} noValidate>
          <h2>Sign in or create an account</h2>
          <p className="muted">We email you a 6-digit passcode. A new email address gets a new account.</p>
          <FormErrors problems={problems} shown={['email']} />
          <Field
            label="Email"
            param="email"
            problems={problems}
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            value={email}
            onValue={setEmail}
            autoFocus
          />
          <button type="submit" disabled={busy}>Email me a passcode</button>
        </form>
      )}
      {step.name === 'code' && (
        <form onSubmit={submitCode} noValidate>
          <h2>Check your email</h2>
          <Notice>We sent a passcode to {step.email}. It is valid for 10 minutes.</Notice>
          <FormErrors problems={problems} shown={['code']} />
          <Field
            label="Passcode"
            param="code"
            problems={problems}
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onValue={setCode}
            autoFocus
          />
          <div className="row">
            <button type="submit" disabled={busy}>Continue</button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setCode('');
                setProblems([]);
                setStep({ name: 'email' });
              }}
            >
              Use another email
            </button>
          </div>
        </form>
      )}
      {step.name === 'store' && (
        <form onSubmit={submitStore} noValidate>
          <h2>Create your store</h2>
          <p className="muted">Your account for {step.email} is ready. Name your store to get your first API key.</p>
          <FormErrors problems={problems} shown={['display_name', 'displayName', 'slug']} />
          <Field
            label="Store name"
            param="display_name"
            problems={problems.map((p) => (p.param === 'displayName' ? { ...p, param: 'display_name' } : p))}
            required
            maxLength={80}
            autoComplete="organization"
            value={displayName}
            onValue={setDisplayName}
            autoFocus
          />
          <Field
            label="Store address (optional)"
            param="slug"
            problems={problems}
            maxLength={80}
            hint="Your store page's slug; derived from the name when empty."
            value={slug}
            onValue={setSlug}
          />
          <button type="submit" disabled={busy}>Create store</button>
        </form>
      )}
      {step.name === 'key' && (
        <div>
          <Secret title="Your API key" value={step.apiKey}>
            <p>This key is shown once. Store it now: it lets your programs and agents use the API.</p>
          </Secret>
          <button type="button" onClick={onSignedIn}>I stored my key, continue</button>
        </div>
      )}
    </main>
  );
}
