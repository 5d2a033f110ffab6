// Memberships (CONTRACT §26) in words: statuses, intervals, why one ended,
// why an order was made, an amount per period. The screens (Memberships,
// the customer, the order, the listing form, home) all say them the same way.
import type { BillingReason, MembershipEndedReason, MembershipInterval, MembershipStatus } from './gql/graphql';
import { formatMoney } from './ui';

export const membershipStatusText: Record<MembershipStatus, string> = {
  TRIALING: 'Trialing',
  ACTIVE: 'Active',
  PAST_DUE: 'Past due',
  CANCELED: 'Canceled',
  ENDED: 'Ended',
};

export const membershipStatuses = Object.keys(membershipStatusText) as MembershipStatus[];

/** month / year: "$9.00 / month". */
export const intervalWord: Record<MembershipInterval, string> = { MONTH: 'month', YEAR: 'year' };

/** Monthly / Yearly, for a choice. */
export const intervalAdjective: Record<MembershipInterval, string> = { MONTH: 'Monthly', YEAR: 'Yearly' };

/** An amount per period as people write it: 900 usd MONTH → "$9.00 / month". */
export function perInterval(amount: number, currency: string | null | undefined, interval: MembershipInterval): string {
  return `${formatMoney(amount, currency)} / ${intervalWord[interval]}`;
}

/** Why a membership ended, as the end of "Ended: …". */
export const endedReasonText: Record<MembershipEndedReason, string> = {
  CANCELED: 'it was canceled',
  PAYMENT_FAILED: 'the renewal could not be charged after every retry',
  REFUNDED: 'its latest payment was refunded',
  DISPUTE_LOST: 'a dispute on its latest payment was lost',
};

/** Why an order was made, for the seller: "First payment of a membership", "Renewal". */
export const billingReasonText: Record<BillingReason, string> = {
  MEMBERSHIP_CREATE: 'First payment of a membership',
  MEMBERSHIP_CYCLE: 'Renewal',
};

/** Why an order was made, given its amount (a trial's first order is paid with nothing charged). */
export function billingReasonOf(reason: BillingReason, amount: number): string {
  return reason === 'MEMBERSHIP_CREATE' && amount === 0 ? 'Start of a membership with a free trial' : billingReasonText[reason];
}

/** A trial's length in words: "14-day free trial". */
export function trialText(days: number): string {
  return days > 0 ? `${new Intl.NumberFormat().format(days)}-day free trial` : 'No free trial';
}
