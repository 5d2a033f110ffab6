-- Uploaded files: a token lives 24 hours and is used once; attaching it
-- moves the content from uploads/ to its permanent key.
CREATE TABLE files (
    token        text PRIMARY KEY,              -- file_…
    account_id   text NOT NULL REFERENCES accounts (id),
    purpose      text NOT NULL CHECK (purpose IN ('deliverable', 'cover', 'avatar')),
    filename     text NOT NULL,
    size         bigint NOT NULL,
    content_type text NOT NULL,
    storage_key  text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);

-- The cleanup job finds expired unused uploads.
CREATE INDEX files_unused_expires_idx ON files (expires_at) WHERE used_at IS NULL;

CREATE TABLE listings (
    id                 text PRIMARY KEY,
    account_id         text NOT NULL REFERENCES accounts (id),
    title              text NOT NULL,
    description        text,
    price              bigint NOT NULL CHECK (price > 0),
    -- Unique across the service and kept by deleted listings, whose
    -- product pages answer 410.
    slug               text NOT NULL UNIQUE,
    status             text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'paused')),
    cover_key          text,
    cover_blur         text NOT NULL DEFAULT 'auto' CHECK (cover_blur IN ('true', 'false', 'auto')),
    external_delivery  text NOT NULL DEFAULT 'webhook' CHECK (external_delivery IN ('webhook', 'generated')),
    checkout_schema    jsonb NOT NULL DEFAULT '[]',
    utm_source         text,
    utm_medium         text,
    utm_campaign       text,
    metadata           jsonb NOT NULL DEFAULT '{}',
    deliverables_count integer NOT NULL DEFAULT 0, -- kept with the deliverables: fulfillment without a join
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    published_at       timestamptz,
    deleted_at         timestamptz
);

-- Keyset pages of an account's listings, newest first, with and without a status filter.
CREATE INDEX listings_account_idx ON listings (account_id, id) WHERE deleted_at IS NULL;
CREATE INDEX listings_account_status_idx ON listings (account_id, status, id) WHERE deleted_at IS NULL;

CREATE TABLE deliverables (
    id                text PRIMARY KEY,          -- del_…
    listing_id        text NOT NULL REFERENCES listings (id),
    type              text NOT NULL CHECK (type IN ('file', 'url', 'text')),
    value             text,                      -- the URL or the text
    file_key          text,
    file_name         text,
    file_size         bigint,
    file_content_type text,
    created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX deliverables_listing_idx ON deliverables (listing_id, id);

-- stats.total_listings without counting.
ALTER TABLE accounts ADD COLUMN listings_count integer NOT NULL DEFAULT 0;
