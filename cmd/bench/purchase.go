package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// purchasePrice is the price of the listing the purchase scenario buys,
	// in cents of the account's currency (USD).
	purchasePrice = 1500
	// purchaseText is the listing's one deliverable.
	purchaseText = "Thank you for buying the cmd/bench product: this text is what a buyer receives."
)

// purchaseRun is what the purchase scenario leaves for its reconciliation.
type purchaseRun struct {
	listingID string
	slug      string
	// completed counts the purchases that ended on the thank-you page,
	// warm-up and preflight included: each must be one fulfilled order.
	completed atomic.Int64
}

// setupPurchase makes the bench account operational (sandbox processor in
// USD) unless it is, creates and publishes a managed listing with one text
// deliverable and returns operations that each buy it as a new buyer: the
// product page's checkout form, then the sandbox checkout paid. Each worker
// has its own client (its own keep-alive connection) and follows no
// redirect: it checks them.
func setupPurchase(ctx context.Context, e *env) (opFactory, func(), error) {
	if err := ensureOperational(ctx, e.cfg); err != nil {
		return nil, nil, err
	}
	run := &purchaseRun{}
	// A fresh listing per run: its orders are this run's only, and so are
	// its buyers' addresses (tagged with the run).
	tag := strconv.FormatInt(time.Now().UnixNano(), 36)
	var l struct {
		ID   string `json:"id"`
		Slug string `json:"slug"`
	}
	err := sendJSON(ctx, http.MethodPost, e.cfg.endpoint("/v1/listings"), e.cfg.key, map[string]any{
		"title": "Bench purchase " + tag, "price": purchasePrice,
		"deliverables": []any{map[string]any{"type": "text", "value": purchaseText}},
	}, http.StatusCreated, &l)
	if err != nil {
		return nil, nil, fmt.Errorf("create the listing: %w", err)
	}
	if l.ID == "" || l.Slug == "" {
		return nil, nil, fmt.Errorf("POST /v1/listings: listing without id or slug: %+v", l)
	}
	var pub struct {
		Status string `json:"status"`
	}
	err = sendJSON(ctx, http.MethodPost, e.cfg.endpoint("/v1/listings/"+l.ID+"/publish"), e.cfg.key, nil, http.StatusOK, &pub)
	if err != nil {
		return nil, nil, fmt.Errorf("publish the listing: %w", err)
	}
	if pub.Status != "published" {
		return nil, nil, fmt.Errorf("POST /v1/listings/%s/publish: status %q, want published", l.ID, pub.Status)
	}
	run.listingID, run.slug = l.ID, l.Slug
	e.purchase = run

	origin := strings.TrimRight(e.cfg.url, "/")
	checkoutURL := origin + "/p/" + l.Slug + "/checkout"
	thankYouPath := "/p/" + l.Slug + "/thank-you"
	var transports []*http.Transport
	newOp := func(worker int) op {
		tr := newTransport(1)
		transports = append(transports, tr) // the factory runs on one goroutine
		client := &http.Client{Transport: tr, Timeout: requestTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		n := 0 // the worker's purchases: its buyers' addresses
		return func(ctx context.Context) error {
			n++
			email := "buyer-" + tag + "-" + strconv.Itoa(worker) + "-" + strconv.Itoa(n) + "@example.com"
			checkout, err := postForm(ctx, client, checkoutURL, origin, url.Values{"email": {email}})
			if err != nil {
				return fmt.Errorf("checkout: %w", err)
			}
			if !strings.HasPrefix(checkout.Path, "/sandbox/checkout/") {
				return fmt.Errorf("checkout: redirected to %s, want the sandbox checkout", checkout)
			}
			thanks, err := postForm(ctx, client, checkout.String(), origin, url.Values{"outcome": {"paid"}})
			if err != nil {
				return fmt.Errorf("pay: %w", err)
			}
			if thanks.Path != thankYouPath || thanks.Query().Get("order") == "" {
				return fmt.Errorf("pay: redirected to %s, want the thank-you page", thanks)
			}
			run.completed.Add(1)
			return nil
		}
	}
	cleanup := func() {
		for _, tr := range transports {
			tr.CloseIdleConnections()
		}
	}
	return newOp, cleanup, nil
}

// ensureOperational connects the sandbox processor (currency USD) over
// HTTP, as a seller would, unless the account is operational already.
func ensureOperational(ctx context.Context, cfg config) error {
	type account struct {
		Readiness struct {
			Operational bool    `json:"operational"`
			Next        *string `json:"next"`
		} `json:"readiness"`
	}
	var acc account
	if err := getJSON(ctx, cfg.endpoint("/v1/account"), cfg.key, &acc); err != nil {
		return err
	}
	if acc.Readiness.Operational {
		return nil
	}
	var onb struct {
		URL string `json:"url"`
	}
	err := sendJSON(ctx, http.MethodPost, cfg.endpoint("/v1/account/processor/connect"), cfg.key, nil, http.StatusOK, &onb)
	if err != nil {
		return fmt.Errorf("connect the processor: %w", err)
	}
	if onb.URL == "" {
		return errors.New("POST /v1/account/processor/connect: no onboarding url")
	}
	client := &http.Client{Timeout: requestTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer client.CloseIdleConnections()
	if _, err := postForm(ctx, client, onb.URL, "", url.Values{"currency": {"usd"}}); err != nil {
		return fmt.Errorf("sandbox onboarding: %w", err)
	}
	acc = account{}
	if err := getJSON(ctx, cfg.endpoint("/v1/account"), cfg.key, &acc); err != nil {
		return err
	}
	if !acc.Readiness.Operational {
		next := "nothing"
		if acc.Readiness.Next != nil {
			next = *acc.Readiness.Next
		}
		return fmt.Errorf("the account is not operational after connecting the processor (next action: %s)", next)
	}
	return nil
}

// postForm posts form to u as a browser's form would (with origin as its
// Origin header unless empty), expects a 303 and returns where it points.
// It reads the whole response, so that the connection is reused.
func postForm(ctx context.Context, client *http.Client, u, origin string, form url.Values) (*url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("HTTP %d, want 303: %.200s", resp.StatusCode, body)
	}
	loc, err := resp.Location()
	if err != nil {
		return nil, fmt.Errorf("HTTP 303: %w", err)
	}
	return loc, nil
}

// checkPurchases reconciles the purchases with the database: each one that
// completed is one fulfilled order of the run's listing (no other order, no
// buyer twice), with one access grant and one download_link email.
func checkPurchases(ctx context.Context, e *env, _ *result) verdict {
	v := verdict{name: "reconciliation"}
	run := e.purchase
	if run == nil {
		v.state, v.detail = "SKIP", "no purchase run"
		return v
	}
	conn, err := pgx.Connect(ctx, e.cfg.databaseURL)
	if err != nil {
		v.state, v.detail = "FAIL", "connect: "+err.Error()
		return v
	}
	defer conn.Close(ctx)
	ops := run.completed.Load()
	var total, buyers, fulfilled, pending, grants, mails int64
	var others string // the orders in any other status, "status=n ..."
	err = conn.QueryRow(ctx, `
		SELECT count(*), count(DISTINCT lower(buyer_email)),
			count(*) FILTER (WHERE status = 'fulfilled'), count(*) FILTER (WHERE status = 'pending'),
			coalesce((SELECT string_agg(status || '=' || n, ' ' ORDER BY status) FROM (
				SELECT status, count(*) AS n FROM orders WHERE listing_id = $1 AND status NOT IN ('fulfilled', 'pending')
				GROUP BY status) AS s), '')
		FROM orders WHERE listing_id = $1`, run.listingID).Scan(&total, &buyers, &fulfilled, &pending, &others)
	if err == nil {
		err = conn.QueryRow(ctx, `
			SELECT count(*) FROM access_grants g JOIN orders o ON o.id = g.order_id
			WHERE o.listing_id = $1 AND o.status = 'fulfilled' AND g.revoked_at IS NULL`, run.listingID).Scan(&grants)
	}
	if err == nil {
		err = conn.QueryRow(ctx, `
			SELECT count(*) FROM mail_messages
			WHERE template = 'download_link'
				AND to_address IN (SELECT buyer_email FROM orders WHERE listing_id = $1 AND status = 'fulfilled')`,
			run.listingID).Scan(&mails)
	}
	if err != nil {
		v.state, v.detail = "FAIL", "query: "+err.Error()
		return v
	}
	v.detail = fmt.Sprintf("%d operations, %d fulfilled orders, %d grants, %d mails, %d pending", ops, fulfilled, grants, mails, pending)
	if others != "" {
		v.detail += ", other orders: " + others
	}
	if buyers != total {
		v.detail += fmt.Sprintf(", %d orders of %d buyers", total, buyers)
	}
	v.state = passFail(fulfilled == ops && total == ops && pending == 0 && buyers == total &&
		grants == fulfilled && mails == fulfilled)
	return v
}
