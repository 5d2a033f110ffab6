// Package lighthouse_test measures the buyer pages the way the web
// measures them (issue 25): `make lighthouse` seeds a product page (cover,
// reviews, a long description), a store page (30 listings), a thank-you
// page and a download page on the real service, runs Lighthouse (this
// folder's package-lock.json, Debian's Chromium, mobile defaults) on each,
// prints the four scores per page and fails below 95. It also takes
// screenshots at 1280 and 375 px (lighthouse/screenshots/).
package lighthouse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// minScore is the least score of every category on every page.
const minScore = 95

type result struct {
	URL     string         `json:"url"`
	Scores  map[string]int `json:"scores"`
	Failing map[string][]struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
		Title string  `json:"title"`
	} `json:"failing"`
	RuntimeError any `json:"runtimeError"`
}

func TestLighthouse(t *testing.T) {
	if os.Getenv("COMMERCE_LIGHTHOUSE") == "" {
		t.Skip("make lighthouse runs this (COMMERCE_LIGHTHOUSE=1)")
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "make lighthouse needs Node.js")
	chromium := os.Getenv("CHROME_PATH")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	_, err = os.Stat(filepath.Join("node_modules", "lighthouse"))
	require.NoError(t, err, "run `npm ci` in lighthouse/ (make lighthouse does)")

	env := testkit.New(t, testkit.WithWorkers())
	pages := seed(t, env)

	shots, err := filepath.Abs("screenshots")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(shots, 0o755))
	var failures []string
	for _, p := range pages {
		for _, w := range []struct {
			name string
			size string
		}{{"desktop", "1280,900"}, {"mobile", "375,812"}} {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			out, err := exec.CommandContext(ctx, chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
				"--window-size="+w.size, "--screenshot="+filepath.Join(shots, p.name+"-"+w.name+".png"), p.url).CombinedOutput()
			cancel()
			require.NoError(t, err, "screenshot of %s: %s", p.url, out)
		}
		res := runLighthouse(t, node, chromium, p.url)
		if below(p.name, res) {
			// One run is one sample: Lighthouse's own guidance on
			// variability is the median of several. A page under the bar
			// is measured twice more, and each category's median counts.
			fmt.Printf("lighthouse %-10s below %d once (%v): measured twice more, the median counts\n", p.name, minScore, res.Scores)
			res = median(res, runLighthouse(t, node, chromium, p.url), runLighthouse(t, node, chromium, p.url))
		}
		fmt.Printf("lighthouse %-10s performance %3d  accessibility %3d  best-practices %3d  seo %3d\n", p.name,
			res.Scores["performance"], res.Scores["accessibility"], res.Scores["best-practices"], res.Scores["seo"])
		for cat, score := range res.Scores {
			if score < 100 {
				for _, f := range res.Failing[cat] {
					fmt.Printf("lighthouse %-10s   %s: %s (%.2f) %s\n", p.name, cat, f.ID, f.Score, f.Title)
				}
			}
			if score >= minScore {
				continue
			}
			var ids []string
			for _, f := range res.Failing[cat] {
				ids = append(ids, fmt.Sprintf("%s (%.2f)", f.ID, f.Score))
			}
			// The download page is /d/…, which robots.txt disallows as
			// CONTRACT §10 says: its SEO misses is-crawlable and nothing else.
			if p.name == "download" && cat == "seo" && len(ids) == 1 && strings.HasPrefix(ids[0], "is-crawlable ") {
				fmt.Printf("lighthouse %-10s seo below %d only for is-crawlable: robots.txt disallows /d/ (CONTRACT §10)\n", p.name, minScore)
				continue
			}
			failures = append(failures, fmt.Sprintf("%s %s %d < %d: %s", p.name, cat, score, minScore, strings.Join(ids, ", ")))
		}
	}
	require.Empty(t, failures)
}

type measured struct{ name, url string }

// runLighthouse runs run.mjs on url once.
func runLighthouse(t *testing.T, node, chromium, url string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "run.mjs", url)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromium)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "lighthouse %s: %s", url, stderr.String())
	var res result
	require.NoError(t, json.Unmarshal(out, &res), "%s", out)
	require.Nil(t, res.RuntimeError, "lighthouse %s", url)
	return res
}

// below reports whether a category of page's res scored under minScore
// (the download page's SEO aside: see TestLighthouse).
func below(page string, res result) bool {
	for cat, score := range res.Scores {
		if score < minScore && (page != "download" || cat != "seo") {
			return true
		}
	}
	return false
}

// median is, per category, the middle score of three runs, with the
// failing audits of the run that scored it.
func median(runs ...result) result {
	out := runs[0]
	out.Scores, out.Failing = map[string]int{}, maps.Clone(runs[0].Failing)
	for cat := range runs[0].Scores {
		rs := slices.Clone(runs)
		slices.SortFunc(rs, func(a, b result) int { return a.Scores[cat] - b.Scores[cat] })
		m := rs[len(rs)/2]
		out.Scores[cat], out.Failing[cat] = m.Scores[cat], m.Failing[cat]
	}
	return out
}

// seed makes the four pages: one seller with an avatar and a bio, a
// product with a cover, a long description and three reviews, 29 more
// listings with covers (30 on the store page), and one paid order.
func seed(t *testing.T, env *testkit.Env) []measured {
	t.Helper()
	acc := env.NewAccount()
	onb := env.Post("/v1/account/processor/connect", acc.Key, nil)
	require.Equal(t, 200, onb.Status, "%s", onb.Body)
	resp, _ := post(t, env, onb.JSON(t)["url"].(string), url.Values{"currency": {"usd"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	avatar := upload(t, env, acc.Key, "avatar", cover(256, 256, 7))
	st := env.Do(testkit.Request{Method: "PUT", Path: "/v1/store", Key: acc.Key, Body: map[string]any{
		"display_name": "Moss & Fern Press", "bio": "Hand-drawn field guides to the small green things of northern woods.",
		"slug": "moss-fern-" + testkit.Unique(), "avatar": avatar}})
	require.Equal(t, 200, st.Status, "%s", st.Body)
	store := env.URL + "/s/" + st.JSON(t)["slug"].(string)

	var slug string
	for i := range 30 {
		body := map[string]any{"title": fmt.Sprintf("Field guide no. %d", i+1), "price": 900 + 100*i,
			"cover":        upload(t, env, acc.Key, "cover", cover(800, 600, i)),
			"deliverables": []map[string]any{{"type": "text", "value": "Thank you for buying this guide."}}}
		if i == 29 {
			body["title"], body["price"] = "The moss atlas of the northern woods", 2900
			body["cover"] = upload(t, env, acc.Key, "cover", cover(1600, 1200, 99))
			body["description"] = longDescription
		}
		r := env.Post("/v1/listings", acc.Key, body)
		require.Equal(t, 201, r.Status, "%s", r.Body)
		r = env.Post("/v1/listings/"+r.JSON(t)["id"].(string)+"/publish", acc.Key, nil)
		require.Equal(t, 200, r.Status, "%s", r.Body)
		if i == 29 {
			slug = r.JSON(t)["slug"].(string)
		}
	}
	var thankYou, buyer string
	for i, rating := range []int{5, 4, 5} {
		buyer = fmt.Sprintf("reader-%d-%s@example.com", i, testkit.Unique())
		resp, _ := post(t, env, env.URL+"/p/"+slug+"/checkout", url.Values{"email": {buyer}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		resp, _ = post(t, env, resp.Header.Get("Location"), url.Values{"outcome": {"paid"}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		thankYou = resp.Header.Get("Location")
		q, err := url.Parse(thankYou)
		require.NoError(t, err)
		_, err = env.Server.DB.Pool.Exec(context.Background(), `INSERT INTO reviews (id, account_id, listing_id, order_id, rating, body, buyer_name)
			SELECT $1, account_id, listing_id, id, $2, $3, $4 FROM orders WHERE id = $5`, fmt.Sprintf("rev_%s%d", testkit.Unique(), i), rating,
			"Clear drawings and a good key; I found four mosses on my first walk.", []string{"Ann", "Ben", "Cho"}[i], q.Query().Get("order"))
		require.NoError(t, err)
	}
	if !strings.HasPrefix(thankYou, "http") {
		thankYou = env.URL + thankYou
	}
	// The download link is mailed once the worker fulfils the order.
	var download string
	require.Eventually(t, func() bool {
		var text string
		err := env.Server.DB.Pool.QueryRow(context.Background(), `SELECT text_body FROM mail_messages WHERE to_address = $1
			AND template = 'download_link' ORDER BY created_at DESC LIMIT 1`, buyer).Scan(&text)
		download = regexp.MustCompile(`/d/[A-Za-z0-9_-]{43}`).FindString(text)
		return err == nil && download != ""
	}, 30*time.Second, 200*time.Millisecond, "the download link mailed to %s", buyer)
	return []measured{{"product", env.URL + "/p/" + slug}, {"store", store}, {"thank-you", thankYou}, {"download", env.URL + download}}
}

// post sends a form as the service's own pages do; redirects are not followed.
func post(t *testing.T, env *testkit.Env, target string, form url.Values) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", target, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	c := *env.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// upload stores a PNG for purpose and returns its file token.
func upload(t *testing.T, env *testkit.Env, key, purpose string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("purpose", purpose))
	part, err := mw.CreateFormFile("file", purpose+".png")
	require.NoError(t, err)
	_, _ = part.Write(content)
	require.NoError(t, mw.Close())
	r := env.Do(testkit.Request{Method: "POST", Path: "/v1/files", Key: key, Body: body.Bytes(),
		Header: map[string]string{"Content-Type": mw.FormDataContentType()}})
	require.Equal(t, 201, r.Status, "%s", r.Body)
	return r.JSON(t)["token"].(string)
}

// cover draws a w×h PNG: a gradient and leaf-like bands, varied by n.
func cover(w, h, n int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			band := ((x+y*(n%5+1))/(w/12+1) + n) % 3
			g := uint8(90 + 120*y/h)
			c := color.NRGBA{uint8(30 + 40*band), g, uint8(60 + (n*37)%120), 255}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

const longDescription = `A field guide to **forty mosses** of the northern woods, drawn by hand from
specimens collected over six seasons.

## What you will learn

- How to tell a *feather moss* from a *fern moss* with a hand lens
- Where each species grows: bark, rock, soil, rotting wood
- The season when each one fruits, and what its capsules look like

Each species has a full-page drawing, a map of where it was found, and a key
that starts from what you can see without a lens. The introduction explains
the parts of a moss and the words botanists use for them, so you can read
other guides too.

## Who it is for

Walkers, teachers and anyone who has knelt by a log and wondered. No botany is
assumed. Read the [sample chapter](https://example.com/sample) before you buy.

> "The drawings are clearer than any photograph." — a reader

### Contents

1. The parts of a moss
2. Mosses of bark and branches
3. Mosses of rock and wall
4. Mosses of soil and path
5. Mosses of rotting wood
6. A key to all forty

The guide is a PDF of 120 pages, sized for a phone or a tablet, with a printable
key at the end. Updates are free: when a new edition comes out, your download
link gets it.
`

// A page measured three times counts each category's middle score, with
// the failing audits of the run that scored it; the download page's SEO
// alone does not ask for more runs.
func TestMedianOfRuns(t *testing.T) {
	run := func(perf, seo int, audit string) result {
		r := result{URL: "u", Scores: map[string]int{"performance": perf, "seo": seo}}
		r.Failing = map[string][]struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
			Title string  `json:"title"`
		}{"performance": {{ID: audit}}}
		return r
	}
	m := median(run(92, 100, "a"), run(99, 90, "b"), run(96, 100, "c"))
	require.Equal(t, map[string]int{"performance": 96, "seo": 100}, m.Scores)
	require.Equal(t, "c", m.Failing["performance"][0].ID)
	require.True(t, below("store", run(94, 100, "")))
	require.False(t, below("download", run(100, 63, "")))
	require.True(t, below("download", run(94, 63, "")))
}
