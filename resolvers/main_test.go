package resolvers_test

import (
	"testing"

	"commerce/testkit"
)

// The discount tests need PostgreSQL and Redis (the whole service); the
// package's other tests need neither.
func TestMain(m *testing.M) { testkit.Main(m) }
