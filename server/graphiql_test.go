package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGraphiQLManifest checks that the embedded IDE files are the ones
// scripts/graphiql.sh pins: the same packages, versions and integrity in
// vendor/manifest.json, every listed file embedded, non-empty and with the
// recorded sha256, a licence beside each package's files, and nothing
// embedded that the manifest does not list.
func TestGraphiQLManifest(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile("../scripts/graphiql.sh")
	require.NoError(t, err)
	type pin struct{ version, integrity string }
	pins := map[string]pin{}
	for _, m := range regexp.MustCompile(`(?m)^\s*"(\S+) (\S+) (sha512-\S+) [^"]+"$`).FindAllStringSubmatch(string(script), -1) {
		pins[m[1]] = pin{m[2], m[3]}
	}
	require.Len(t, pins, 4, "graphiql, react, react-dom and graphql-ws are pinned in scripts/graphiql.sh")

	raw, err := fs.ReadFile(graphiqlFiles, "graphiql/vendor/manifest.json")
	require.NoError(t, err)
	var manifest ideManifest
	require.NoError(t, json.Unmarshal(raw, &manifest))
	require.Len(t, manifest.Packages, len(pins))

	listed := map[string]bool{"manifest.json": true}
	for _, p := range manifest.Packages {
		want, ok := pins[p.Name]
		require.True(t, ok, "%s is embedded but not pinned", p.Name)
		require.Equal(t, want.version, p.Version, p.Name)
		require.Equal(t, want.integrity, p.Integrity, p.Name)
		licence := false
		for _, f := range p.Files {
			data, err := fs.ReadFile(graphiqlFiles, "graphiql/vendor/"+f.Path)
			require.NoError(t, err, f.Path)
			require.NotEmpty(t, data, f.Path)
			require.Len(t, data, f.Size, f.Path)
			sum := sha256.Sum256(data)
			require.Equal(t, f.SHA256, hex.EncodeToString(sum[:]), f.Path)
			require.Equal(t, p.Name, path.Dir(f.Path), f.Path)
			listed[f.Path] = true
			licence = licence || strings.HasPrefix(path.Base(f.Path), "LICENSE")
		}
		require.True(t, licence, "%s@%s: no licence file", p.Name, p.Version)
	}
	require.NoError(t, fs.WalkDir(graphiqlFiles, "graphiql/vendor", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			require.True(t, listed[strings.TrimPrefix(p, "graphiql/vendor/")], "%s is embedded but not in manifest.json", p)
		}
		return err
	}))
}

// TestGraphiQLPins checks that the page loads the pinned builds the
// manifest describes: each vendor script and style sheet is served under a
// content hash.
func TestGraphiQLPins(t *testing.T) {
	t.Parallel()
	ide := loadIDE()
	for _, f := range []string{
		"vendor/react/react.production.min.js",
		"vendor/react-dom/react-dom.production.min.js",
		"vendor/graphql-ws/graphql-ws.min.js",
		"vendor/graphiql/graphiql.min.js",
		"vendor/graphiql/graphiql.min.css",
		"ide.js",
		"ide.css",
	} {
		u, ok := ide.urls[f]
		require.True(t, ok, f)
		data, err := fs.ReadFile(graphiqlFiles, "graphiql/"+f)
		require.NoError(t, err)
		sum := sha256.Sum256(data)
		require.Equal(t, "graphql/assets/"+hex.EncodeToString(sum[:])[:16]+"/"+path.Base(f), u)
	}
}

// ideManifest is vendor/manifest.json, written by scripts/graphiql.sh.
type ideManifest struct {
	Packages []struct {
		Name      string `json:"name"`
		Version   string `json:"version"`
		Integrity string `json:"integrity"`
		Files     []struct {
			Path   string `json:"path"`
			Size   int    `json:"size"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
	} `json:"packages"`
}
