package pages_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/testkit"
)

// uploadCover uploads img as a PNG cover and returns its file token.
func uploadCover(t *testing.T, env *testkit.Env, key string, img image.Image) any {
	t.Helper()
	var pngBytes, body bytes.Buffer
	require.NoError(t, png.Encode(&pngBytes, img))
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("purpose", "cover"))
	part, err := mw.CreateFormFile("file", "cover.png")
	require.NoError(t, err)
	_, _ = part.Write(pngBytes.Bytes())
	require.NoError(t, mw.Close())
	up := env.Do(testkit.Request{Method: "POST", Path: "/v1/files", Key: key, Body: body.Bytes(),
		Header: map[string]string{"Content-Type": mw.FormDataContentType()}})
	require.Equal(t, 201, up.Status, "%s", up.Body)
	return up.JSON(t)["token"]
}

// A cover comes in sizes (srcset): made at upload, and made again on the
// first request of a size that is missing (covers uploaded before sizes).
func TestCoverSizes(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Cover Shop")
	img := image.NewNRGBA(image.Rect(0, 0, 800, 600))
	for y := range 600 {
		for x := range 800 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	l := publish(t, env, s.Key, map[string]any{"title": "Covered", "price": 900, "cover": uploadCover(t, env, s.Key, img),
		"deliverables": []map[string]any{{"type": "text", "value": "x"}}})

	html := page(t, env, "/p/"+l["slug"].(string), "")
	m := regexp.MustCompile(`srcset="([^"]+)"`).FindStringSubmatch(html)
	require.NotNil(t, m, "a srcset")
	sizes := strings.Split(m[1], ", ")
	require.Len(t, sizes, 4)
	widths := map[string]int{"320w": 320, "640w": 640, "960w": 800, "1280w": 800} // never enlarged
	dir := strings.TrimPrefix(env.Server.Config.FileStorageURL, "file://")
	for i, sz := range sizes {
		u, w, _ := strings.Cut(sz, " ")
		require.True(t, strings.HasPrefix(u, env.URL+"/media/covers/"), u)
		if i == 0 {
			// A size missing from storage is made on its first request.
			key := "public/" + strings.TrimPrefix(u, env.URL+"/media/")
			require.FileExists(t, filepath.Join(dir, key), "made at upload")
			require.NoError(t, os.Remove(filepath.Join(dir, key)))
		}
		resp, got := send(t, env, "GET", u, "", nil)
		require.Equal(t, 200, resp.StatusCode, u)
		require.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))
		cfg, err := jpeg.DecodeConfig(strings.NewReader(got))
		require.NoError(t, err)
		require.Equal(t, widths[w], cfg.Width, sz)
		require.Equal(t, widths[w]*3/4, cfg.Height, sz)
	}
	resp, _ := send(t, env, "GET", strings.Replace(strings.Split(sizes[0], " ")[0], ".w320.", ".w321.", 1), "", nil)
	require.Equal(t, 404, resp.StatusCode, "only the offered widths")
}

// The store page asks for its first card's cover first (the largest paint
// on a phone, where a card is the screen's width) and leaves the covers
// below the first screen to load lazily.
func TestStorePageCoverPriority(t *testing.T) {
	t.Parallel()
	env := pagesEnv(t)
	s := newSeller(t, env, "Priority Shop")
	for i := range 6 {
		img := image.NewNRGBA(image.Rect(0, 0, 64, 48))
		img.SetNRGBA(i, i, color.NRGBA{200, 10, 10, 255})
		publish(t, env, s.Key, map[string]any{"title": "Card " + string(rune('A'+i)), "price": 900, "cover": uploadCover(t, env, s.Key, img),
			"deliverables": []map[string]any{{"type": "text", "value": "x"}}})
	}
	imgs := regexp.MustCompile(`<li class="card"><a [^>]*><img [^>]*>`).FindAllString(page(t, env, "/s/"+s.Slug, ""), -1)
	require.Len(t, imgs, 6)
	for i, tag := range imgs {
		require.Equal(t, i == 0, strings.Contains(tag, `fetchpriority="high"`), "card %d: %s", i, tag)
		require.Equal(t, i >= 4, strings.Contains(tag, `loading="lazy"`), "card %d: %s", i, tag)
	}
}
