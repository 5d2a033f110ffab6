// Plan and billing: the plans, the account's plan, fee rate and billing status.
import { useQuery } from 'urql';
import { BillingQuery } from '../ops';
import { problemsOf } from '../problems';
import { Badge, FormErrors, Loading, Page, formatMoney } from '../ui';

function percent(rate: string): string {
  const n = Number(rate);
  return Number.isFinite(n) ? `${+(n * 100).toFixed(2)}%` : rate;
}

export function Billing() {
  const [{ data, fetching, error }] = useQuery({ query: BillingQuery });
  const viewer = data?.viewer;
  return (
    <Page title="Plan and billing">
      <FormErrors problems={problemsOf(error)} />
      {!data && fetching && <Loading />}
      {viewer && (
        <section aria-labelledby="current">
          <h2 id="current">Your plan</h2>
          <dl className="facts">
            <dt>Plan</dt>
            <dd>{viewer.plan.toLowerCase()}</dd>
            <dt>Platform fee</dt>
            <dd>{percent(viewer.feeRate)} of each sale</dd>
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
                {viewer?.plan === p.id && <p><strong>Your plan</strong></p>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}
