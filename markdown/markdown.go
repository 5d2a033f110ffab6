// Package markdown renders a seller's Markdown (a listing's description)
// for the buyer pages, safely: raw HTML is dropped, links carry
// rel="nofollow ugc", links with an unsafe scheme (javascript:, vbscript:,
// data:, file: and anything but http, https and mailto) lose their target,
// images become links (a page loads nothing from another host), and
// headings start below the page's own (the top level becomes h3).
package markdown

import (
	"bytes"
	"html/template"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MaxInput is the most Markdown rendered, in bytes: a description is at
// most 5000 characters (CONTRACT §8), which is at most 20,000 bytes of
// UTF-8; anything past MaxInput is cut before parsing.
const MaxInput = 20000

var md = goldmark.New(
	goldmark.WithExtensions(extension.Strikethrough, extension.Linkify, extension.Table),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(safeLinks{}, 100))),
	// Raw HTML is off: goldmark writes "<!-- raw HTML omitted -->" for it
	// unless html.WithUnsafe is given, which it never is here.
)

// HTML renders src as HTML safe to place in a page.
func HTML(src string) template.HTML {
	var b bytes.Buffer
	if err := md.Convert([]byte(bound(src)), &b); err != nil {
		// Rendering into memory cannot fail; an escaped copy keeps the text.
		return template.HTML("<p>" + template.HTMLEscapeString(src) + "</p>") //nolint:gosec // escaped
	}
	return template.HTML(b.String()) //nolint:gosec // rendered without raw HTML, unsafe links removed
}

// Text is src as plain text: Markdown syntax and any tags dropped, runs of
// space collapsed; at most max characters (cut at a word, with "…"), 0 for
// no limit.
func Text(src string, max int) string {
	doc := md.Parser().Parse(text.NewReader([]byte(bound(src))))
	source := []byte(bound(src))
	var b strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock {
				b.WriteByte(' ')
			}
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.RawHTML, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(t.Segment.Value(source))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if s, ok := c.(*ast.Text); ok {
					b.Write(s.Segment.Value(source))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(t.Label(source))
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
		}
		return ast.WalkContinue, nil
	})
	out := strings.Join(strings.Fields(b.String()), " ")
	if max > 0 && utf8.RuneCountInString(out) > max {
		r := []rune(out)[:max]
		cut := string(r)
		if i := strings.LastIndexByte(cut, ' '); i > max/2 {
			cut = cut[:i]
		}
		out = strings.TrimRight(cut, " ,.;:") + "…"
	}
	return out
}

// bound cuts src to MaxInput bytes at a character boundary.
func bound(src string) string {
	if len(src) <= MaxInput {
		return src
	}
	cut := src[:MaxInput]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut
}

// safeLinks marks links nofollow ugc, drops unsafe targets, turns images
// into links and moves headings below the page's h1 and h2.
type safeLinks struct{}

func (safeLinks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	// The description's top heading level becomes h3 (under the page's
	// h2), the others following it, so no level is skipped.
	top := 7
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			top = min(top, h.Level)
		}
		return ast.WalkContinue, nil
	})
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Heading:
			t.Level = min(t.Level-top+3, 6)
		case *ast.Link:
			if !SafeURL(t.Destination) {
				t.Destination = []byte("#")
			}
			t.SetAttributeString("rel", []byte("nofollow ugc"))
		case *ast.AutoLink:
			if t.AutoLinkType == ast.AutoLinkURL && !SafeURL(t.URL(source)) {
				// Shown as text, not a link.
				t.Parent().ReplaceChild(t.Parent(), t, ast.NewString(t.Label(source)))
				return ast.WalkSkipChildren, nil
			}
			t.SetAttributeString("rel", []byte("nofollow ugc"))
		case *ast.Image:
			images = append(images, t)
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		link := ast.NewLink()
		link.Destination = img.Destination
		if !SafeURL(link.Destination) {
			link.Destination = []byte("#")
		}
		link.SetAttributeString("rel", []byte("nofollow ugc"))
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
		if link.ChildCount() == 0 {
			link.AppendChild(link, ast.NewString(img.Destination))
		}
		img.Parent().ReplaceChild(img.Parent(), img, link)
	}
}

// SafeURL reports whether a link target may be followed from a buyer
// page: http, https, mailto, or a relative reference (a path or a
// fragment). Any other scheme (javascript:, vbscript:, data:, file:) is
// unsafe, however it is spelled.
func SafeURL(u []byte) bool {
	// Browsers ignore ASCII tab and newline inside a scheme, and leading
	// spaces and control characters.
	var clean []byte
	for _, c := range u {
		if c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		clean = append(clean, c)
	}
	s := strings.ToLower(strings.TrimLeft(string(clean), "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "))
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return true
	}
	if stop := strings.IndexAny(s, "/?#"); stop >= 0 && stop < colon {
		return true // the colon is in the path, query or fragment: relative
	}
	switch s[:colon] {
	case "http", "https", "mailto":
		return true
	}
	return false
}
