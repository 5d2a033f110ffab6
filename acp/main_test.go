package acp_test

import (
	"testing"

	"commerce/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }
