DROP TABLE IF EXISTS sandbox_charges;
DROP INDEX IF EXISTS orders_membership_cycle_idx;
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_membership_check,
    DROP COLUMN IF EXISTS membership_cycle, DROP COLUMN IF EXISTS billing_reason, DROP COLUMN IF EXISTS membership_id;
DROP TABLE IF EXISTS memberships;
ALTER TABLE listings DROP CONSTRAINT IF EXISTS listings_membership_check,
    DROP COLUMN IF EXISTS trial_days, DROP COLUMN IF EXISTS billing_interval, DROP COLUMN IF EXISTS billing;
