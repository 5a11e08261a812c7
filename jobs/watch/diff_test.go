package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/analysis"
)

func entry(sec analysis.Section, rank string, kind analysis.Kind, amount int64) analysis.Entry {
	return analysis.Entry{Section: sec, Rank: rank, Kind: kind, Purpose: string(kind), Amount: amount,
		Holders: []analysis.Party{{Role: "권리자", Name: "김철수"}}}
}

func reg(es ...analysis.Entry) *analysis.Registry {
	r := &analysis.Registry{}
	for _, e := range es {
		if e.Section == analysis.SectionOwnership {
			r.Ownership = append(r.Ownership, e)
		} else {
			r.Rights = append(r.Rights, e)
		}
	}
	return r
}

func cancelled(e analysis.Entry, by string) analysis.Entry {
	e.Cancelled, e.CancelledBy = true, by
	return e
}

var (
	own    = analysis.SectionOwnership
	rights = analysis.SectionRights
	owner1 = entry(own, "1", analysis.KindPreservation, 0)
	mort2  = entry(rights, "1", analysis.KindMortgage, 240_000_000)
)

func TestCompare(t *testing.T) {
	complete := func(r *analysis.Registry) Read { return Read{Registry: r, Verdict: analysis.VerdictComplete} }
	cases := []struct {
		name    string
		prev    *analysis.Registry
		cur     Read
		outcome Outcome
		kinds   []string // kind/severity/key of each change, in order
	}{
		{"first complete read is the baseline", nil, complete(reg(owner1, mort2)), OutcomeBaseline, nil},
		{"nothing changed", reg(owner1, mort2), complete(reg(owner1, mort2)), OutcomeUnchanged, nil},
		{"new 가압류", reg(owner1, mort2), complete(reg(owner1, entry(own, "2", analysis.KindProvisionalAttachment, 50_000_000), mort2)),
			OutcomeChanged, []string{"NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/2"}},
		{"new 근저당", reg(owner1), complete(reg(owner1, mort2)), OutcomeChanged, []string{"NEW_ENTRY/CRITICAL/NEW_ENTRY/rights/1"}},
		{"every watched kind", reg(owner1), complete(reg(owner1,
			entry(own, "2", analysis.KindSeizure, 0), entry(own, "3", analysis.KindInjunction, 0),
			entry(own, "4", analysis.KindProvisionalRegistration, 0), entry(own, "5", analysis.KindTrust, 0),
			entry(own, "6", analysis.KindAuction, 0), entry(rights, "1", analysis.KindLeaseRegistration, 100_000_000))),
			OutcomeChanged, []string{"NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/2", "NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/3",
				"NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/4", "NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/5",
				"NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/6", "NEW_ENTRY/CRITICAL/NEW_ENTRY/rights/1"}},
		{"new owner", reg(owner1), complete(reg(owner1, entry(own, "2", analysis.KindTransfer, 0))), OutcomeChanged,
			[]string{"NEW_OWNER/CRITICAL/NEW_OWNER/ownership/2"}},
		{"근저당 cancelled", reg(owner1, mort2), complete(reg(owner1, cancelled(mort2, "2"), entry(rights, "2", analysis.KindCancellation, 0))),
			OutcomeChanged, []string{"CANCELLED/INFO/CANCELLED/rights/1"}},
		{"amount rose", reg(owner1, mort2), complete(reg(owner1, entry(rights, "1", analysis.KindMortgage, 360_000_000))),
			OutcomeChanged, []string{"AMOUNT_CHANGED/WARNING/AMOUNT_CHANGED/rights/1"}},
		{"amount fell", reg(owner1, mort2), complete(reg(owner1, entry(rights, "1", analysis.KindMortgage, 120_000_000))),
			OutcomeChanged, []string{"AMOUNT_CHANGED/INFO/AMOUNT_CHANGED/rights/1"}},
		{"amount changed by a 변경 부기등기", reg(owner1, mort2), complete(reg(owner1, mort2, entry(rights, "1-1", analysis.KindOther, 300_000_000))),
			OutcomeChanged, []string{"AMOUNT_CHANGED/WARNING/AMOUNT_CHANGED/rights/1-1"}},
		{"registered and cancelled between checks", reg(owner1), complete(reg(owner1,
			cancelled(entry(own, "2", analysis.KindProvisionalAttachment, 0), "3"), entry(own, "3", analysis.KindCancellation, 0))),
			OutcomeUnchanged, nil},
		{"new 전세권 is not watched", reg(owner1), complete(reg(owner1, entry(rights, "1", analysis.KindJeonse, 1))), OutcomeUnchanged, nil},
		{"critical first", reg(owner1, mort2), complete(reg(owner1, cancelled(mort2, "2"), entry(rights, "2", analysis.KindCancellation, 0),
			entry(own, "2", analysis.KindSeizure, 0))),
			OutcomeChanged, []string{"NEW_ENTRY/CRITICAL/NEW_ENTRY/ownership/2", "CANCELLED/INFO/CANCELLED/rights/1"}},
		// A registry never removes an entry: a complete read without one
		// the previous read had is an older copy, another property's, or
		// a read that lost part of it (an uploaded copy with 을구 cut off
		// was taken for "no change" once).
		{"an entry of the previous read missing", reg(owner1, mort2), complete(reg(owner1)),
			OutcomeCouldNotVerify, []string{"COULD_NOT_VERIFY/WARNING/COULD_NOT_VERIFY"}},
		{"another property's registry", reg(owner1, mort2),
			complete(reg(entry(own, "3", analysis.KindTransfer, 0), entry(own, "8", analysis.KindPreservation, 0))),
			OutcomeCouldNotVerify, []string{"COULD_NOT_VERIFY/WARNING/COULD_NOT_VERIFY"}},
		{"a cancelled entry stays: not missing", reg(owner1, mort2),
			complete(reg(owner1, cancelled(mort2, "2"), entry(rights, "2", analysis.KindCancellation, 0))),
			OutcomeChanged, []string{"CANCELLED/INFO/CANCELLED/rights/1"}},
		{"partial read never says no change", reg(owner1, mort2),
			Read{Registry: reg(owner1, mort2), Verdict: analysis.VerdictPartial, Reasons: []analysis.Reason{{Code: "MISSING_END", Message: "no end marker"}}},
			OutcomeCouldNotVerify, []string{"COULD_NOT_VERIFY/WARNING/COULD_NOT_VERIFY"}},
		{"unreadable", nil, Read{Verdict: analysis.VerdictUnreadable}, OutcomeCouldNotVerify, []string{"COULD_NOT_VERIFY/WARNING/COULD_NOT_VERIFY"}},
		{"wrong document", reg(owner1), Read{Registry: reg(owner1), Verdict: analysis.VerdictWrongDocument}, OutcomeCouldNotVerify,
			[]string{"COULD_NOT_VERIFY/WARNING/COULD_NOT_VERIFY"}},
		{"issuance failed", reg(owner1), Read{FailedReason: "the issuance failed (AUTOMATION_FAILED)"}, OutcomeCouldNotVerify,
			[]string{"COULD_NOT_VERIFY/WARNING/COULD_NOT_VERIFY"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outcome, changes := Compare(c.prev, c.cur)
			if outcome != c.outcome {
				t.Fatalf("outcome %s, want %s", outcome, c.outcome)
			}
			var got []string
			for _, ch := range changes {
				got = append(got, string(ch.Kind)+"/"+string(ch.Severity)+"/"+ch.Key)
				if ch.Message == "" {
					t.Errorf("change %s has no message", ch.Key)
				}
			}
			if strings.Join(got, " ") != strings.Join(c.kinds, " ") {
				t.Fatalf("changes\n got %v\nwant %v", got, c.kinds)
			}
		})
	}
}

func TestCouldNotVerifyCarriesReasons(t *testing.T) {
	_, ch := Compare(nil, Read{Registry: reg(owner1), Verdict: analysis.VerdictPartial, Reasons: []analysis.Reason{
		{Code: "RANK_GAP", Message: "갑구 rank 3 missing"}, {Code: "INFERRED_ENTRY", Message: "a note", Note: true}}})
	if len(ch) != 1 || len(ch[0].Reasons) != 1 || ch[0].Reasons[0].Code != "RANK_GAP" || !strings.Contains(ch[0].Message, "rank 3 missing") {
		t.Fatalf("got %+v", ch)
	}
	// An uploaded copy's alert says the copy, not the registry, could not
	// be verified (an outside tester's PARTIAL photo was "The registry
	// could not be verified (PARTIAL)"); so does a copy lacking entries.
	for _, c := range []struct {
		name string
		prev *analysis.Registry
		cur  Read
		want string
	}{
		{"the registry, partial", nil, Read{Registry: reg(owner1), Verdict: analysis.VerdictPartial}, "The registry could not be verified (PARTIAL)"},
		{"a copy, partial", nil, Read{Registry: reg(owner1), Verdict: analysis.VerdictPartial, Uploaded: true}, "The uploaded copy could not be verified (PARTIAL)"},
		{"a copy lacking entries", reg(owner1, mort2), Read{Registry: reg(owner1), Verdict: analysis.VerdictComplete, Uploaded: true}, "The uploaded copy could not be verified: this copy lacks"},
		{"the registry lacking entries", reg(owner1, mort2), Read{Registry: reg(owner1), Verdict: analysis.VerdictComplete}, "The registry could not be verified: this copy lacks"},
	} {
		if _, ch := Compare(c.prev, c.cur); len(ch) != 1 || !strings.HasPrefix(ch[0].Message, c.want) {
			t.Errorf("%s: %+v, want a message beginning %q", c.name, ch, c.want)
		}
	}
	// A copy lacking entries is called older than the read before only
	// when it is not dated after it (an outside tester's later copy was
	// "older than the one read before").
	dated := func(r *analysis.Registry, day int) *analysis.Registry {
		at := time.Date(2026, 11, day, 10, 0, 0, 0, time.UTC)
		r.PrintedAt = &at
		return r
	}
	for _, c := range []struct {
		name          string
		prev, cur     *analysis.Registry
		want, wantNot string
	}{
		{"dated later", dated(reg(owner1, mort2), 1), dated(reg(owner1), 20), "dated after the one read before, had an entry removed", "is older"},
		{"dated earlier", dated(reg(owner1, mort2), 20), dated(reg(owner1), 1), "this copy is older than the one read before", "dated after"},
		{"the same day", dated(reg(owner1, mort2), 20), dated(reg(owner1), 20), "this copy is older than the one read before", "dated after"},
		{"undated", dated(reg(owner1, mort2), 1), reg(owner1), "this copy is older than the one read before", "dated after"},
	} {
		_, ch := Compare(c.prev, Read{Registry: c.cur, Verdict: analysis.VerdictComplete, Uploaded: true})
		if len(ch) != 1 || !strings.Contains(ch[0].Message, c.want) || strings.Contains(ch[0].Message, c.wantNot) {
			t.Errorf("%s: %+v, want a message saying %q, not %q", c.name, ch, c.want, c.wantNot)
		}
	}
	// A reason that ends its sentence gets no second period.
	_, ch = Compare(nil, Read{Verdict: analysis.VerdictUnreadable, Reasons: []analysis.Reason{{Code: "NO_ENTRIES", Message: "No entry could be read."}}})
	if len(ch) != 1 || strings.Contains(ch[0].Message, "..") {
		t.Fatalf("got %q", ch[0].Message)
	}
}

func TestPlan(t *testing.T) {
	// 2026-12-01 08:00 in Seoul.
	now := time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC)
	d := func(s string) *time.Time { v, _ := time.Parse(time.DateOnly, s); return &v }
	cases := []struct {
		name  string
		in    Dates
		want  []string // purpose@runAt (UTC)
		field string   // of the error
		past  bool
	}{
		{"contract balance move-in", Dates{Contract: d("2026-12-01"), Balance: d("2026-12-20"), MoveIn: d("2026-12-31")},
			[]string{"CONTRACT@2026-12-01T00:00", "BALANCE@2026-12-20T00:00", "MOVE_IN@2026-12-31T00:00", "AFTER_MOVE_IN@2027-01-01T00:00"}, "", false},
		{"every 10 days", Dates{EveryDays: 10, Until: d("2026-12-25")},
			[]string{"PERIODIC@2026-12-11T00:00", "PERIODIC@2026-12-21T00:00"}, "", false},
		{"periodic skips a milestone's date", Dates{Balance: d("2026-12-11"), EveryDays: 10, Until: d("2026-12-21")},
			[]string{"BALANCE@2026-12-11T00:00", "PERIODIC@2026-12-21T00:00"}, "", false},
		{"past date", Dates{Contract: d("2026-11-30")}, nil, "contractDate", true},
		{"past move-in", Dates{MoveIn: d("2025-01-01")}, nil, "moveInDate", true},
		{"too far ahead", Dates{MoveIn: d("2028-01-01")}, nil, "moveInDate", false},
		{"nothing set", Dates{}, nil, "input", false},
		{"balance before contract", Dates{Contract: d("2026-12-10"), Balance: d("2026-12-05")}, nil, "balanceDate", false},
		{"move-in before balance", Dates{Balance: d("2026-12-10"), MoveIn: d("2026-12-05")}, nil, "moveInDate", false},
		{"huge N", Dates{EveryDays: 1 << 30, Until: d("2026-12-25")}, nil, "everyDays", false},
		{"negative N", Dates{EveryDays: -1, Until: d("2026-12-25")}, nil, "everyDays", false},
		{"N without until", Dates{EveryDays: 3}, nil, "until", false},
		{"until without N", Dates{Until: d("2026-12-25")}, nil, "everyDays", false},
		{"too many checks", Dates{EveryDays: 1, Until: d("2027-06-01")}, nil, "everyDays", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Plan(c.in, now)
			if c.field != "" {
				ie, ok := err.(*InputError)
				if !ok || ie.Field != c.field || ie.Past != c.past {
					t.Fatalf("err %v, want field %s past %v", err, c.field, c.past)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var s []string
			for _, p := range got {
				s = append(s, string(p.Purpose)+"@"+p.RunAt.Format("2006-01-02T15:04"))
			}
			if strings.Join(s, " ") != strings.Join(c.want, " ") {
				t.Fatalf("got %v\nwant %v", s, c.want)
			}
		})
	}
	// Today, after the morning: at once.
	late := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	got, err := Plan(Dates{Contract: d("2026-12-01")}, late)
	if err != nil || len(got) != 1 || !got[0].RunAt.Equal(late) {
		t.Fatalf("got %v %v", got, err)
	}
}

func TestParseDate(t *testing.T) {
	for _, s := range []string{"", "2026-13-01", "2026/12/01", "tomorrow", "2026-02-30"} {
		if _, err := ParseDate("f", s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
