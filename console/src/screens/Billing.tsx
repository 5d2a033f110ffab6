// Plan and billing: the plans, the account's plan, fee rate, billing status
// and subscription, and the plan change (changePlan): a paid plan goes
// through the processor's hosted subscription checkout, which returns here
// with ?plan_change=paid|failed|expired; the free plan is immediate.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import type { PlanId } from '../gql/graphql';
import { BillingQuery, ChangePlan } from '../ops';
import { problemsOf, type Problem } from '../problems';
import { useLocation } from '../router';
import { Badge, FormErrors, Loading, Notice, Page, Time, formatMoney } from '../ui';

function percent(rate: string): string {
  const n = Number(rate);
  return Number.isFinite(n) ? `${+(n * 100).toFixed(2)}%` : rate;
}

export function Billing() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: BillingQuery });
  const [, changePlan] = useMutation(ChangePlan);
  const [busy, setBusy] = useState<PlanId | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [notice, setNotice] = useState('');
  const { query } = useLocation();
  const returned = query.get('plan_change');
  const viewer = data?.viewer;
  const sub = viewer?.subscription;

  async function change(plan: PlanId, name: string) {
    if (plan === 'FREE' && !window.confirm(`Move to the ${name} plan now? Your subscription is canceled.`)) return;
    setBusy(plan);
    setProblems([]);
    setNotice('');
    const r = await changePlan({ input: { plan } });
    const c = r.data?.changePlan;
    if (r.error || !c) {
      setBusy(null);
      setProblems(problemsOf(r.error));
      return;
    }
    if (c.status === 'PENDING' && c.url) {
      window.location.assign(c.url);
      return;
    }
    setBusy(null);
    setNotice(`You are on the ${name} plan.`);
    refetch({ requestPolicy: 'network-only' });
  }

  return (
    <Page title="Plan and billing">
      {returned === 'paid' && <Notice>Payment received: your new plan is in force.</Notice>}
      {returned === 'failed' && (
        <p className="alert" role="alert">The subscription payment failed: your plan did not change.</p>
      )}
      {returned === 'expired' && (
        <p className="alert" role="alert">
          That subscription checkout expired before it was paid: your plan did not change. Choose the plan again.
        </p>
      )}
      {notice && <Notice>{notice}</Notice>}
      <FormErrors problems={[...problemsOf(error), ...problems]} />
      {!data && fetching && <Loading />}
      {viewer && (
        <section aria-labelledby="current">
          <h2 id="current">Your plan</h2>
          <dl className="facts">
            <dt>Plan</dt>
            <dd data-testid="plan">{viewer.plan.toLowerCase()}</dd>
            <dt>Platform fee</dt>
            <dd data-testid="fee-rate">{percent(viewer.feeRate)} of each sale</dd>
            <dt>Billing</dt>
            <dd><Badge value={viewer.billingStatus} /></dd>
          </dl>
          {viewer.billingStatus !== 'ACTIVE' && (
            <p className="alert" role="alert">
              {viewer.billingStatus === 'PAST_DUE'
                ? 'Your last renewal failed. Your store keeps selling during the 7-day grace period.'
                : 'Your plan is unpaid: your listings cannot sell until it is paid.'}
            </p>
          )}
          <h3>Subscription</h3>
          {sub ? (
            <dl className="facts" data-testid="subscription">
              <dt>Plan</dt>
              <dd>{sub.plan.toLowerCase()}</dd>
              <dt>Status</dt>
              <dd><Badge value={sub.status} /></dd>
              <dt>Current period ends</dt>
              <dd>{sub.currentPeriodEnd ? <Time value={sub.currentPeriodEnd} /> : '—'}</dd>
              <dt>Ends</dt>
              <dd>{sub.cancelAt ? <Time value={sub.cancelAt} /> : 'Renews automatically'}</dd>
            </dl>
          ) : (
            <p className="muted">No subscription: you are on the free plan.</p>
          )}
        </section>
      )}
      {data?.plans && (
        <section aria-labelledby="plans">
          <h2 id="plans">Plans</h2>
          <ul className="plans">
            {data.plans.map((p) => (
              <li key={p.id} className={viewer?.plan === p.id ? 'card current' : 'card'}>
                <h3>{p.name}</h3>
                <p className="price">
                  {p.monthlyPrice === 0 ? 'Free' : `${formatMoney(p.monthlyPrice, p.currency)} / month`}
                </p>
                <p>{percent(p.feeRate)} platform fee per sale</p>
                {viewer?.plan === p.id ? (
                  <p><strong>Your plan</strong></p>
                ) : (
                  viewer && (
                    <button type="button" disabled={busy !== null} onClick={() => change(p.id, p.name)}>
                      {busy === p.id ? 'Working…' : `Move to ${p.name}`}
                    </button>
                  )
                )}
              </li>
            ))}
          </ul>
          <p className="muted">
            A paid plan starts when its first payment is confirmed on the processor's page; moving to Free is immediate.
          </p>
        </section>
      )}
    </Page>
  );
}
