package markdown_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/markdown"
)

func TestHTMLIsSafe(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		absent    []string
		present   []string
	}{
		{"script element", "Hello <script>alert(1)</script> there\n\n<script>alert(2)</script>",
			[]string{"<script", "alert(1)</script>"}, []string{"Hello"}},
		{"event handler", `<img src=x onerror="alert(1)"> and <a href="https://x.test" onclick="alert(1)">x</a>`,
			[]string{"onerror", "onclick", "<img"}, nil},
		{"html block with handler", "<div onmouseover=\"alert(1)\">hover</div>", []string{"onmouseover", "<div"}, nil},
		{"javascript link", "[click](javascript:alert(1))", []string{"javascript:"}, []string{`href="#"`, `rel="nofollow ugc"`}},
		{"javascript link, spelled oddly", "[click](JaVaScRiPt:alert(1)) [b](\tjavascript:alert(2)) [c](java%0ascript:alert(3))",
			[]string{"avascript:", "JaVaScRiPt"}, nil},
		{"vbscript and data links", "[a](vbscript:msgbox) [b](data:text/html;base64,PHNjcmlwdD4=)", []string{"vbscript:", "data:text"}, nil},
		{"autolink with javascript", "<javascript:alert(1)>", []string{`href="javascript`}, nil},
		{"safe links kept, nofollow ugc", "[site](https://example.com/a?b=1) and <https://example.com/c> and www.example.org",
			nil, []string{`<a href="https://example.com/a?b=1" rel="nofollow ugc">site</a>`, `<a href="https://example.com/c" rel="nofollow ugc">`, `rel="nofollow ugc">www.example.org</a>`}},
		{"image becomes a link", "![the cover](https://cdn.example.com/c.png)", []string{"<img"},
			[]string{`<a href="https://cdn.example.com/c.png" rel="nofollow ugc">the cover</a>`}},
		{"headings below the page's", "# Big\n\n## Smaller", []string{"<h1", "<h2"}, []string{"<h3>Big</h3>", "<h4>Smaller</h4>"}},
		{"no heading level skipped", "## Top\n\n### Next", []string{"<h2", "<h5"}, []string{"<h3>Top</h3>", "<h4>Next</h4>"}},
		{"markdown rendered", "**bold** and *it*\n\n- one\n- two", nil, []string{"<strong>bold</strong>", "<em>it</em>", "<li>one</li>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := string(markdown.HTML(c.src))
			for _, a := range c.absent {
				require.NotContains(t, strings.ToLower(out), strings.ToLower(a), "%s", out)
			}
			for _, p := range c.present {
				require.Contains(t, out, p)
			}
		})
	}
}

func TestHTMLBoundsItsInput(t *testing.T) {
	t.Parallel()
	out := string(markdown.HTML(strings.Repeat("é", markdown.MaxInput)))
	require.Less(t, strings.Count(out, "é"), markdown.MaxInput/2+1)
}

func TestText(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Big Some bold text, a link and code. x one two",
		markdown.Text("# Big\n\nSome **bold** text, [a link](https://x.test) and `code`.\n\n<b>x</b>\n\n- one\n- two", 0))
	require.Equal(t, "", markdown.Text("<script>alert(1)</script>", 0))
	long := markdown.Text(strings.Repeat("word ", 100), 30)
	require.LessOrEqual(t, len([]rune(long)), 31)
	require.True(t, strings.HasSuffix(long, "…"), long)
}

func TestSafeURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"https://a.test", "http://a.test", "mailto:a@b.test", "/p/x", "#top", "a/b:c", "?q=a:b"} {
		require.True(t, markdown.SafeURL([]byte(u)), u)
	}
	for _, u := range []string{"javascript:alert(1)", " JAVASCRIPT:x", "java\tscript:x", "vbscript:x", "data:text/html,x", "file:///etc/passwd"} {
		require.False(t, markdown.SafeURL([]byte(u)), u)
	}
}
