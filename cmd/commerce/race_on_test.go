//go:build race

package main

// raceEnabled: this test binary was built with -race (the build of the
// binary under test reuses those compiled packages).
const raceEnabled = true
