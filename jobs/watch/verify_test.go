package watch

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/analysis"
)

// TestCompareCopy: how an uploaded copy differs from the registry's own
// document, entry by entry; what hides a risk is serious, what the
// registry gained after the copy was printed is not.
func TestCompareCopy(t *testing.T) {
	t.Parallel()
	printed := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	received := func(e analysis.Entry, d time.Time) analysis.Entry {
		e.Received = d
		return e
	}
	named := func(e analysis.Entry, name string) analysis.Entry {
		e.Holders = []analysis.Party{{Role: "소유자", Name: name}}
		return e
	}
	before, after := printed.AddDate(0, -2, 0), printed.AddDate(0, 0, 3)
	transfer := named(received(entry(own, "2", analysis.KindTransfer, 0), before), "박영희")
	jeonse := received(entry(rights, "2", analysis.KindJeonse, 300_000_000), before)
	seizure := received(entry(own, "3", analysis.KindSeizure, 0), before)
	for _, c := range []struct {
		name           string
		copy, registry *analysis.Registry
		want           []string // kind/section/rank/serious/afterCopy of each difference, in order
	}{
		{"the same", reg(owner1, mort2), reg(owner1, mort2), nil},
		{"a 근저당 left out", reg(owner1), reg(owner1, received(mort2, before)), []string{"MISSING/rights/1/true/false"}},
		{"a 근저당 registered after the copy", reg(owner1), reg(owner1, received(mort2, after)), []string{"MISSING/rights/1/false/true"}},
		{"a 전세권 and a 압류 left out", reg(owner1), reg(owner1, seizure, jeonse), []string{"MISSING/ownership/3/true/false", "MISSING/rights/2/true/false"}},
		{"a cancelled entry left out", reg(owner1), reg(owner1, cancelled(mort2, "2"), entry(rights, "2", analysis.KindCancellation, 0)), nil},
		{"a live 근저당 shown cancelled", reg(owner1, cancelled(mort2, "2"), entry(rights, "2", analysis.KindCancellation, 0)),
			reg(owner1, mort2, entry(rights, "2", analysis.KindCancellation, 0)), []string{"CHANGED/rights/1/true/false"}},
		{"a 근저당's ceiling lowered", reg(owner1, entry(rights, "1", analysis.KindMortgage, 24_000_000)), reg(owner1, mort2),
			[]string{"CHANGED/rights/1/true/false"}},
		{"a 근저당's ceiling raised", reg(owner1, entry(rights, "1", analysis.KindMortgage, 360_000_000)), reg(owner1, mort2),
			[]string{"CHANGED/rights/1/false/false"}},
		{"another owner named", reg(owner1, named(transfer, "이임대")), reg(owner1, transfer), []string{"CHANGED/ownership/2/true/false"}},
		{"an owner's name misread by a syllable", reg(owner1, named(transfer, "박영회")), reg(owner1, transfer), []string{"CHANGED/ownership/2/false/false"}},
		{"an owner's name with a space", reg(owner1, named(transfer, "박 영희")), reg(owner1, transfer), nil},
		{"an owner's name read glued to its number", reg(owner1, named(transfer, "박영희490711-*eeeeR")), reg(owner1, transfer), []string{"CHANGED/ownership/2/false/false"}},
		{"another name glued to a number", reg(owner1, named(transfer, "이임대490711-*")), reg(owner1, transfer), []string{"CHANGED/ownership/2/true/false"}},
		{"a syllable misread, glued to the number", reg(owner1, named(transfer, "박영회490711-*")), reg(owner1, transfer), []string{"CHANGED/ownership/2/false/false"}},
		{"a 근저당 shown as a 전세권", reg(owner1, entry(rights, "1", analysis.KindJeonse, 240_000_000)), reg(owner1, mort2),
			[]string{"CHANGED/rights/1/true/false"}},
		{"an entry the registry lacks", reg(owner1, mort2), reg(owner1), []string{"ADDED/rights/1/false/false"}},
		{"a rank misread, the 접수 the same", reg(owner1, func() analysis.Entry { e := received(mort2, before); e.Rank, e.ReceiptNo = "7", 4411; return e }()),
			reg(owner1, func() analysis.Entry { e := received(mort2, before); e.ReceiptNo = 4411; return e }()), nil},
		{"serious first", reg(owner1, entry(rights, "1", analysis.KindMortgage, 360_000_000)), reg(owner1, mort2, jeonse),
			[]string{"MISSING/rights/2/true/false", "CHANGED/rights/1/false/false"}},
		// An outside tester's copy: the 근저당 at 을구 1 taken out and the
		// rows below moved up a rank. By rank, every row was CHANGED and
		// the 근저당 never named.
		{"a 근저당 taken out, the rows below renumbered", renumbered(), registryOfFour(),
			[]string{"MISSING/rights/1/true/false"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range CompareCopy(c.copy, c.registry, &printed) {
				got = append(got, fmt.Sprintf("%s/%s/%s/%t/%t", d.Kind, d.Section, d.Rank, d.Serious, d.AfterCopy))
				if d.Message == "" {
					t.Errorf("%s: no message", d.Kind)
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestCopyLacksIssued: an uploaded copy dated after the registry's own
// document that lacks one of its live risks or owners: altered where read
// in full, perhaps removed where read in part; what it lacks otherwise (a
// cancelled entry, a 말소, a right that is no risk) raises nothing here
// (the read's COULD_NOT_VERIFY warning says it); an entry read under
// another rank but its 접수 is there.
// registryOfFour is an 을구 of four: a 근저당, a 근저당 cancelled by the
// 말소 at 3, and a 전세권, each with its 접수; renumbered is a copy of it
// with the first taken out and the rest moved up a rank (the 말소 naming
// its target's new rank).
func registryOfFour() *analysis.Registry {
	day := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	e := func(rank string, k analysis.Kind, amount int64, days, receipt int) analysis.Entry {
		x := entry(rights, rank, k, amount)
		x.Received, x.ReceiptNo = day.AddDate(0, 0, days), receipt
		return x
	}
	return reg(owner1, e("1", analysis.KindMortgage, 334_800_000, 0, 1101), cancelled(e("2", analysis.KindMortgage, 120_000_000, 30, 2202), "3"),
		e("3", analysis.KindCancellation, 0, 60, 3303), e("4", analysis.KindJeonse, 510_000_000, 90, 4404))
}

func renumbered() *analysis.Registry {
	r := registryOfFour()
	rights := r.Rights[1:]
	for i := range rights {
		rights[i].Rank = fmt.Sprint(i + 1)
	}
	rights[0].CancelledBy = "2"
	r.Rights = rights
	return r
}

// TestMissingRenumbered: a copy with a row taken out and the rest moved up
// lacks that row, not the last one (an outside tester's COULD_NOT_VERIFY
// named the 전세권 the copy has, not the 근저당 it lacks).
func TestMissingRenumbered(t *testing.T) {
	t.Parallel()
	got := Missing(registryOfFour(), renumbered())
	if len(got) != 1 || got[0].Rank != "1" || got[0].Kind != analysis.KindMortgage {
		t.Fatalf("missing %+v, want 을구 1's 근저당 alone", got)
	}
	if got := Missing(registryOfFour(), registryOfFour()); len(got) != 0 {
		t.Errorf("the same registry lacks %+v", got)
	}
}

func TestCopyLacksIssued(t *testing.T) {
	t.Parallel()
	issued := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	seizure, jeonse := entry(own, "3", analysis.KindSeizure, 0), entry(rights, "2", analysis.KindJeonse, 300_000_000)
	other := entry(rights, "4", analysis.KindOther, 0)
	received := func(e analysis.Entry, no int) analysis.Entry {
		e.Received, e.ReceiptNo = issued.AddDate(-1, 0, 0), no
		return e
	}
	for _, c := range []struct {
		name           string
		registry, copy *analysis.Registry
		want           []string // key of each change
	}{
		{"the same", reg(owner1, mort2), reg(owner1, mort2), nil},
		{"a live 근저당 left out", reg(owner1, mort2), reg(owner1), []string{"MISSING/rights/1"}},
		{"the owner's entry left out", reg(owner1, mort2), reg(mort2), []string{"MISSING/ownership/1"}},
		{"a live 압류 and a 전세권 left out", reg(owner1, seizure, mort2, jeonse), reg(owner1, mort2), []string{"MISSING/ownership/3", "MISSING/rights/2"}},
		{"a cancelled 근저당 left out", reg(owner1, cancelled(mort2, "2"), entry(rights, "2", analysis.KindCancellation, 0)), reg(owner1), nil},
		{"a right of no risk left out", reg(owner1, other), reg(owner1), nil},
		{"rows renumbered after a removed 근저당", reg(owner1, received(mort2, 0), func() analysis.Entry { e := received(jeonse, 0); e.Rank = "2"; return e }()),
			reg(owner1, func() analysis.Entry { e := received(jeonse, 0); e.Rank = "1"; return e }()), []string{"MISSING/rights/1"}},
		{"another entry of the kind under the rank, received another day", reg(owner1, received(mort2, 0)),
			reg(owner1, func() analysis.Entry { e := received(mort2, 0); e.Received = e.Received.AddDate(1, 0, 0); return e }()), []string{"MISSING/rights/1"}},
		{"a 근저당 read under another rank, its 접수 the same", reg(owner1, received(mort2, 4411)),
			reg(owner1, func() analysis.Entry { e := received(mort2, 4411); e.Rank = "7"; return e }()), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, complete := range []bool{true, false} {
				var got []string
				for _, ch := range CopyLacksIssued(c.registry, c.copy, &issued, complete) {
					word := "may have been altered"
					if !complete {
						word = "not read from it or is not on it"
					}
					if ch.Kind != AlertCopyDiffers || ch.Severity != SeverityCritical || ch.After == nil || ch.Before != nil ||
						!strings.Contains(ch.Message, word) || !strings.Contains(ch.Message, "2026-11-20") {
						t.Errorf("complete %v: change %+v", complete, ch)
					}
					got = append(got, ch.Key)
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("complete %v: keys %v, want %v", complete, got, c.want)
				}
			}
		})
	}
}
