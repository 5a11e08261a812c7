package core

import (
	"testing"
	"time"

	"github.com/dungji/dungji/db"
)

func TestJudgeActive(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	lc := func(st db.Status, age time.Duration) *db.Lifecycle {
		return &db.Lifecycle{Status: st, UpdatedAt: now.Add(-age)}
	}
	const stale = 10 * time.Minute
	for _, tc := range []struct {
		name       string
		lc         *db.Lifecycle
		job        *string
		staleAfter time.Duration
		want       activeVerdict
	}{
		{"pending, job available", lc(db.StatusPending, time.Minute), str("available"), stale, activeVerdict{Reuse: true}},
		{"pending, job running", lc(db.StatusPending, time.Minute), str("running"), stale, activeVerdict{Reuse: true}},
		{"pending, stale", lc(db.StatusPending, stale), str("available"), stale, activeVerdict{Code: CodeStalePending, Stale: true,
			Message: "no worker picked the task up within 10m0s"}},
		{"pending, just under stale", lc(db.StatusPending, stale-time.Microsecond), str("available"), stale, activeVerdict{Reuse: true}},
		{"pending, long, no staleness (OCR)", lc(db.StatusPending, 24*time.Hour), str("available"), 0, activeVerdict{Reuse: true}},
		{"pending, job gone", lc(db.StatusPending, time.Minute), nil, stale, activeVerdict{Code: CodeUnknown,
			Message: "the task was stuck: its job no longer exists"}},
		{"pending, job gone (OCR)", lc(db.StatusPending, time.Minute), nil, 0, activeVerdict{Code: CodeUnknown,
			Message: "the task was stuck: its job no longer exists"}},
		{"pending, stale and job cancelled: stuck wins", lc(db.StatusPending, time.Hour), str("cancelled"), stale, activeVerdict{Code: CodeUnknown,
			Message: "the task was stuck: its job is cancelled"}},
		{"processing, job running", lc(db.StatusProcessing, time.Hour), str("running"), stale, activeVerdict{Reuse: true}},
		{"processing, job retryable", lc(db.StatusProcessing, time.Hour), str("retryable"), 0, activeVerdict{Reuse: true}},
		{"processing, job discarded", lc(db.StatusProcessing, time.Minute), str("discarded"), stale, activeVerdict{Code: CodeUnknown,
			Message: "the task was stuck: its job is discarded"}},
		{"processing, job completed, last error", &db.Lifecycle{Status: db.StatusProcessing, UpdatedAt: now, LastErrorCode: str(string(CodeUploadFailed))},
			str("completed"), 0, activeVerdict{Code: CodeUnknown, Message: "the task was stuck: its job is completed; last error UPLOAD_FAILED"}},
		{"success meanwhile", lc(db.StatusSuccess, time.Hour), str("completed"), stale, activeVerdict{}},
		{"failed meanwhile", lc(db.StatusFailed, time.Hour), nil, stale, activeVerdict{}},
	} {
		if got := JudgeActive(tc.lc, tc.job, now, tc.staleAfter); got != tc.want {
			t.Errorf("%s: judgeActive = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
