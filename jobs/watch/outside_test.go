package watch

import (
	"testing"

	"github.com/dungji/dungji/jobs/analysis"
)

// TestCouldNotVerifyReasons: an outside review found COULD_NOT_VERIFY alerts
// with an empty reasons list when the read failed (OCR failed, issuance
// failed) or was UNREADABLE without a reason: the why was only in the
// message. Every COULD_NOT_VERIFY alert carries at least one reason with a
// code and the message that explains it.
func TestCouldNotVerifyReasons(t *testing.T) {
	cases := []struct {
		name string
		cur  Read
		code string
	}{
		{"OCR failed", Read{FailedReason: "the document could not be read (UNREADABLE: no text)"}, ReasonNoRead},
		{"issuance failed", Read{FailedReason: "the registry could not be issued (AUTOMATION_FAILED: bot down)"}, ReasonNoRead},
		{"unreadable, no reason given", Read{Verdict: analysis.VerdictUnreadable}, analysis.ReasonNoEntries},
		{"partial with its reason", Read{Verdict: analysis.VerdictPartial, Reasons: []analysis.Reason{
			{Code: analysis.ReasonMissingEnd, Message: "end not found"}}}, analysis.ReasonMissingEnd},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outcome, changes := Compare(nil, c.cur)
			if outcome != OutcomeCouldNotVerify || len(changes) != 1 {
				t.Fatalf("outcome %s, %d changes", outcome, len(changes))
			}
			rs := changes[0].Reasons
			if len(rs) == 0 || rs[0].Code != c.code || rs[0].Message == "" {
				t.Fatalf("reasons %+v, want a first reason %s with a message", rs, c.code)
			}
		})
	}
}
