package main

import (
	"runtime/debug"
	"testing"
)

// The service collects garbage at GOGC=200 unless GOGC is set: half the
// collections of the default, for a heap that is small either way (the
// GraphQL list reads allocate per field; issue 15's profile).
func TestServiceGCTarget(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != 200 {
		t.Fatalf("GC percent with GOGC unset = %d, want 200", got)
	}
	tuneGC(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent with GOGC set = %d, want the runtime's own (100 here)", got)
	}
}
