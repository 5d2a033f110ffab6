-- The renewal engine of memberships (CONTRACT §26), beside the foundation's
-- table.

-- billing_anchor is what every period end is counted from
-- (membership.PeriodEnd): the first payment, or the trial's end with a
-- trial. The due dates follow from it, not from when a step happened to
-- run, so a late sweep or the sandbox's advance never shifts a period.
ALTER TABLE memberships ADD COLUMN billing_anchor timestamptz;
UPDATE memberships SET billing_anchor = coalesce(trial_end, current_period_start);
ALTER TABLE memberships ALTER COLUMN billing_anchor SET NOT NULL;

-- A renewal a processor bills itself (Stripe Billing) is found by its
-- invoice: the invoice's events pay, fail and retry the same order, once
-- per invoice however many events arrive.
ALTER TABLE orders ADD COLUMN processor_invoice_id text;
CREATE UNIQUE INDEX orders_processor_invoice_idx ON orders (processor_invoice_id) WHERE processor_invoice_id IS NOT NULL;
