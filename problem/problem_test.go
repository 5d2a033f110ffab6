package problem_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"commerce/problem"
)

// The code → status table matches the spec and the contract.
func TestStatusTable(t *testing.T) {
	t.Parallel()
	want := map[problem.Code]int{
		"invalid_request": 400, "invalid_session": 400, "invalid_passcode": 400,
		"authentication_error": 401, "permission_denied": 403, "not_found": 404, "method_not_allowed": 405,
		"not_in_draft": 409, "publish_failed": 409, "invalid_transition": 409, "conflict": 409,
		"idempotency_request_in_progress": 409, "activation_limit_reached": 409, "license_inactive": 409,
		"file_too_large": 413, "refund_not_allowed": 422, "missing_payment_intent": 422, "missing_processor_connection": 422,
		"validation_error": 422, "idempotency_key_reuse": 422, "rate_limited": 429, "internal_error": 500,
	}
	require.Len(t, problem.Codes(), len(want))
	for code, status := range want {
		require.Equal(t, status, code.Status(), code)
		require.NotEmpty(t, code.Title(), code)
		require.NotEmpty(t, code.About(), code)
	}
	require.Equal(t, 500, problem.Code("nope").Status())
}

func TestFieldsCollectsAll(t *testing.T) {
	t.Parallel()
	var f problem.Fields
	require.NoError(t, f.Err())
	f.Add("title", "title is required")
	f.Add("price", "price must be positive")
	p := problem.From(fmt.Errorf("wrapped: %w", f.Err()))
	require.NotNil(t, p)
	require.Equal(t, problem.ValidationError, p.Code)
	require.Equal(t, "title", p.Param)
	require.Len(t, p.Errors, 2)
	require.Nil(t, problem.From(errors.New("plain")))
}
