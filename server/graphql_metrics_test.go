package server

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// Operation names label the GraphQL metrics: "anonymous" without one, the
// first maxOperationNames distinct names as they are, "other" for any name
// after them, for a name too long, and for the two reserved labels.
func TestGraphQLMetricsOperationNames(t *testing.T) {
	t.Parallel()
	m := newGraphQLMetrics(prometheus.NewRegistry())
	require.Equal(t, "anonymous", m.operation(""))
	require.Equal(t, "other", m.operation("anonymous"))
	require.Equal(t, "other", m.operation("other"))
	require.Equal(t, "other", m.operation(strings.Repeat("a", maxOperationName+1)))
	require.Equal(t, "Checkout", m.operation("Checkout"))

	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range maxOperationNames {
				m.operation(fmt.Sprintf("Op%d_%d", g, i))
			}
		})
	}
	wg.Wait()
	require.Len(t, m.names, maxOperationNames)
	require.Equal(t, "Checkout", m.operation("Checkout"), "a name seen before keeps its label")
	require.Equal(t, "other", m.operation("NewName"))
	require.Len(t, m.names, maxOperationNames)
}
