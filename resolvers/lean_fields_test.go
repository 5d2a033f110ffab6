package resolvers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/graph"
)

// Every field of Listing in the schema is either lean (leanListingFields)
// or made of a column the lean page leaves out: a field added to the schema
// must be classified here, after a look at what it reads.
func TestLeanListingFieldsClassifyTheSchema(t *testing.T) {
	heavy := map[string]bool{"description": true, "checkoutSchema": true, "metadata": true}
	def := graph.NewExecutableSchema(graph.Config{Resolvers: (&Resolver{}).Root()}).Schema().Types["Listing"]
	require.NotNil(t, def)
	for _, f := range def.Fields {
		if len(f.Name) > 1 && f.Name[:2] == "__" {
			continue
		}
		require.True(t, leanListingFields[f.Name] != heavy[f.Name], "Listing.%s: lean or heavy, not both or neither", f.Name)
	}
	for name := range leanListingFields {
		if name != "__typename" {
			require.NotNil(t, def.Fields.ForName(name), "leanListingFields names %s, which Listing does not have", name)
		}
	}
	for name := range summaryListingFields {
		require.True(t, leanListingFields[name], "summaryListingFields names %s, which is not lean", name)
	}
	for name := range accountRowlessFields {
		if name != "__typename" {
			require.NotNil(t, graph.NewExecutableSchema(graph.Config{Resolvers: (&Resolver{}).Root()}).Schema().Types["Account"].Fields.ForName(name), "accountRowlessFields names %s, which Account does not have", name)
		}
	}
}
