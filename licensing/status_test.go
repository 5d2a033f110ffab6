package licensing

import (
	"testing"
	"time"
)

func TestStatus(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Second), now.Add(time.Second)
	for _, c := range []struct {
		stored  string
		expires *time.Time
		want    string
	}{
		{StatusActive, nil, StatusActive},
		{StatusActive, &future, StatusActive},
		{StatusActive, &now, StatusExpired},
		{StatusActive, &past, StatusExpired},
		{StatusDisabled, &past, StatusDisabled},
		{StatusRevoked, &past, StatusRevoked},
		{StatusRevoked, nil, StatusRevoked},
	} {
		if got := Status(c.stored, c.expires, now); got != c.want {
			t.Errorf("Status(%q, %v) = %q, want %q", c.stored, c.expires, got, c.want)
		}
	}
}
