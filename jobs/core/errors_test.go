package core

import "testing"

// TestHTTPStatus: every request error code has its status; TIMEOUT (work
// stopped at REQUEST_TIMEOUT) is 504, told apart from a failure (500);
// task failure codes never reach HTTP as request errors and fall to 500.
func TestHTTPStatus(t *testing.T) {
	for _, tc := range []struct {
		code Code
		want int
	}{
		{CodeUnauthenticated, 401},
		{CodeForbidden, 403},
		{CodeNotFound, 404},
		{CodeBadUserInput, 400},
		{CodeBadRequest, 400},
		{CodeMethodNotAllowed, 405},
		{CodeConflict, 409},
		{CodeRateLimited, 429},
		{CodeUnavailable, 503},
		{CodeInternal, 500},
		{CodeTimeout, 504},
		{CodeDepthLimitExceeded, 400},
		{CodeAutomationFailed, 500},
		{Code("NO_SUCH_CODE"), 500},
	} {
		if got := HTTPStatus(tc.code); got != tc.want {
			t.Errorf("HTTPStatus(%s) = %d, want %d", tc.code, got, tc.want)
		}
	}
}
