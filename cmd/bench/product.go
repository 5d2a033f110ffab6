package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strconv"
	"time"
)

// setupProductPage is product-page: every request another client, a view
// the counter has not seen and must remember and count.
func setupProductPage(ctx context.Context, e *env) (opFactory, func(), error) {
	return setupProductPageAs(ctx, e, true)
}

// setupProductPageSeen is product-page-seen, product-page's baseline in
// the same run: every request of a worker is the same client, so after
// its first view the counter only finds it remembered and adds nothing.
// What product-page costs beyond it is what counting a new view costs.
func setupProductPageSeen(ctx context.Context, e *env) (opFactory, func(), error) {
	return setupProductPageAs(ctx, e, false)
}

// setupProductPageAs makes the bench account operational, creates and
// publishes a listing with a cover and returns operations that each GET
// its product page. With newClient each request is another client: a user
// agent and X-Forwarded-For of its own (the service trusts the header only
// from TRUSTED_PROXIES; the user agent alone makes another client);
// without, a worker is one client throughout.
func setupProductPageAs(ctx context.Context, e *env, newClient bool) (opFactory, func(), error) {
	if err := ensureOperational(ctx, e.cfg); err != nil {
		return nil, nil, err
	}
	cover, err := uploadCover(ctx, e.cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("upload the cover: %w", err)
	}
	tag := strconv.FormatInt(time.Now().UnixNano(), 36)
	var l struct {
		ID   string `json:"id"`
		Slug string `json:"slug"`
	}
	err = sendJSON(ctx, http.MethodPost, e.cfg.endpoint("/v1/listings"), e.cfg.key, map[string]any{
		"title": "Bench product page " + tag, "price": purchasePrice, "cover": cover,
		"description":  "A listing whose product page cmd/bench reads, **with Markdown** and a cover.",
		"deliverables": []any{map[string]any{"type": "text", "value": purchaseText}},
	}, http.StatusCreated, &l)
	if err != nil {
		return nil, nil, fmt.Errorf("create the listing: %w", err)
	}
	if err := sendJSON(ctx, http.MethodPost, e.cfg.endpoint("/v1/listings/"+l.ID+"/publish"), e.cfg.key, nil, http.StatusOK, nil); err != nil {
		return nil, nil, fmt.Errorf("publish the listing: %w", err)
	}
	page := e.cfg.endpoint("/p/" + l.Slug)
	var transports []*http.Transport
	newOp := func(worker int) op {
		tr := newTransport(e.cfg.concurrency)
		transports = append(transports, tr) // the factory runs on one goroutine
		client := &http.Client{Transport: tr, Timeout: requestTimeout}
		n := 0
		return func(ctx context.Context) error {
			if newClient {
				n++
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
			if err != nil {
				return err
			}
			req.Header.Set("User-Agent", fmt.Sprintf("commerce-bench/1 (worker %d; view %d)", worker, n))
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.%d.%d", worker%256, n%256))
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if _, err := io.Copy(io.Discard, resp.Body); err != nil {
				return fmt.Errorf("read response: %w", err)
			}
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("GET /p/%s: HTTP %d", l.Slug, resp.StatusCode)
			}
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

// uploadCover uploads a 640×360 PNG as a cover and returns its token.
func uploadCover(ctx context.Context, cfg config) (string, error) {
	img := image.NewRGBA(image.Rect(0, 0, 640, 360))
	for y := 0; y < 360; y++ {
		for x := 0; x < 640; x++ {
			img.Set(x, y, color.RGBA{R: uint8(x), G: uint8(y), B: 128, A: 255})
		}
	}
	var file bytes.Buffer
	if err := png.Encode(&file, img); err != nil {
		return "", err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField("purpose", "cover"); err != nil {
		return "", err
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="cover.png"`)
	h.Set("Content-Type", "image/png")
	part, err := mw.CreatePart(h)
	if err != nil {
		return "", err
	}
	if _, err := part.Write(file.Bytes()); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.endpoint("/v1/files"), &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+cfg.key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := (&http.Client{Timeout: requestTimeout}).Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("POST /v1/files: HTTP %d: %.300s", resp.StatusCode, b)
	}
	var f struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(b, &f); err != nil || f.Token == "" {
		return "", fmt.Errorf("POST /v1/files: no token in %.300s", b)
	}
	return f.Token, nil
}
