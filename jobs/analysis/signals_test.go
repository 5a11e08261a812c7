package analysis

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestAnalyzeCleanText(t *testing.T) {
	t.Parallel()
	reg, err := Parse(cleanText)
	if err != nil {
		t.Fatal(err)
	}
	sig := Analyze(reg, Options{Now: date(2020, 1, 1), Deposit: 200_000_000, Price: 800_000_000})
	mortgage := EntryRef{Section: SectionRights, Rank: "1", Purpose: "근저당권설정", Kind: KindMortgage}
	want := Signals{
		ParserVersion: ParserVersion,
		Ownership: Ownership{
			Owners:         []Party{{Role: "소유자", Name: "김민준", ID: "750101-*******"}},
			Since:          date(2019, 5, 2),
			RecentTransfer: true,
			Entries:        []EntryRef{{Section: SectionOwnership, Rank: "2", Purpose: "소유권이전", Kind: KindTransfer}},
		},
		Mortgages:    Total{Total: 360_000_000, Entries: []EntryRef{mortgage}},
		Jeonse:       Total{Entries: []EntryRef{}},
		Flags:        []Flag{}, // the 가압류 is cancelled
		Ratio:        &Ratio{Mortgages: 360_000_000, Deposit: 200_000_000, Price: 800_000_000, Value: 0.7, Entries: []EntryRef{mortgage}},
		Unrecognized: []EntryRef{},
	}
	if !reflect.DeepEqual(sig, want) {
		t.Errorf("Analyze\n got %+v\nwant %+v", sig, want)
	}
}

func TestAnalyzeRecentTransfer(t *testing.T) {
	t.Parallel()
	transfer := func(k Kind, received time.Time) *Registry {
		return &Registry{Ownership: []Entry{
			{Section: SectionOwnership, Rank: "1", Purpose: "소유권보존", Kind: KindPreservation, Received: date(2000, 1, 1)},
			{Section: SectionOwnership, Rank: "2", Purpose: "소유권이전", Kind: k, Received: received},
		}}
	}
	since := date(2023, 3, 15)
	tests := []struct {
		name string
		reg  *Registry
		now  time.Time
		want bool
	}{
		{"a day after", transfer(KindTransfer, since), since.AddDate(0, 0, 1), true},
		{"a day short of two years", transfer(KindTransfer, since), date(2025, 3, 14), true},
		{"two years to the day", transfer(KindTransfer, since), date(2025, 3, 15), false},
		{"long ago", transfer(KindTransfer, since), date(2030, 1, 1), false},
		{"a trust counts", transfer(KindTrust, since), date(2024, 1, 1), true},
		{"no clock", transfer(KindTransfer, since), time.Time{}, false},
		{"a new building is no transfer", &Registry{Ownership: []Entry{
			{Section: SectionOwnership, Rank: "1", Purpose: "소유권보존", Kind: KindPreservation, Received: since},
		}}, date(2024, 1, 1), false},
		{"the date not read", transfer(KindTransfer, time.Time{}), date(2024, 1, 1), false},
	}
	for _, tt := range tests {
		if got := Analyze(tt.reg, Options{Now: tt.now}).Ownership.RecentTransfer; got != tt.want {
			t.Errorf("%s: RecentTransfer = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestAnalyzeFlags builds a registry with every flagged kind, live and
// cancelled: only the live ones count, each with its entries and amounts.
func TestAnalyzeFlags(t *testing.T) {
	t.Parallel()
	own := func(rank, purpose string, k Kind, amount int64) Entry {
		return Entry{Section: SectionOwnership, Rank: rank, Purpose: purpose, Kind: k, Amount: amount, Holders: []Party{}}
	}
	right := func(rank, purpose string, k Kind, amount int64) Entry {
		e := own(rank, purpose, k, amount)
		e.Section = SectionRights
		return e
	}
	cancelled := func(e Entry, by string) Entry {
		e.Cancelled, e.CancelledBy = true, by
		return e
	}
	co := own("2", "소유권이전", KindTransfer, 0)
	co.Holders = []Party{{Role: "공유자", Name: "임준호", Share: "2분의 1"}, {Role: "공유자", Name: "홍상철", Share: "2분의 1"}}
	co.Received = date(2015, 1, 1)
	reg := &Registry{
		Ownership: []Entry{
			own("1", "소유권보존", KindPreservation, 0),
			co,
			own("3", "가압류", KindProvisionalAttachment, 50_000_000),
			cancelled(own("4", "가압류", KindProvisionalAttachment, 70_000_000), "5"),
			own("5", "4번가압류등기말소", KindCancellation, 0),
			own("6", "압류", KindSeizure, 0),
			own("7", "가처분", KindInjunction, 0),
			own("8", "소유권이전청구권가등기", KindProvisionalRegistration, 0),
			own("9", "강제경매개시결정", KindAuction, 50_000_000),
			own("10", "가알뮤", KindUnknown, 0),
		},
		Rights: []Entry{
			cancelled(right("1", "근저당권설정", KindMortgage, 240_000_000), "2"),
			right("2", "1번근저당권설정등기말소", KindCancellation, 0),
			right("3", "근저당권설정", KindMortgage, 120_000_000),
			right("4", "근저당권설정", KindMortgage, 60_000_000),
			right("5", "전세권설정", KindJeonse, 300_000_000),
			right("6", "주택임차권", KindLeaseRegistration, 250_000_000),
			right("7", "근저당권변경", KindOther, 0),
		},
	}
	sig := Analyze(reg, Options{Now: date(2026, 1, 1), Deposit: 100_000_000})
	ref := func(e Entry) EntryRef { return e.Ref() }
	if sig.Mortgages.Total != 180_000_000 || !reflect.DeepEqual(sig.Mortgages.Entries, []EntryRef{ref(reg.Rights[2]), ref(reg.Rights[3])}) {
		t.Errorf("mortgages %+v", sig.Mortgages)
	}
	if sig.Jeonse.Total != 300_000_000 || len(sig.Jeonse.Entries) != 1 {
		t.Errorf("jeonse %+v", sig.Jeonse)
	}
	wantFlags := []Flag{
		{Kind: KindAuction, Total: 50_000_000, Entries: []EntryRef{ref(reg.Ownership[8])}},
		{Kind: KindSeizure, Entries: []EntryRef{ref(reg.Ownership[5])}},
		{Kind: KindProvisionalAttachment, Total: 50_000_000, Entries: []EntryRef{ref(reg.Ownership[2])}},
		{Kind: KindInjunction, Entries: []EntryRef{ref(reg.Ownership[6])}},
		{Kind: KindProvisionalRegistration, Entries: []EntryRef{ref(reg.Ownership[7])}},
		{Kind: KindLeaseRegistration, Total: 250_000_000, Entries: []EntryRef{ref(reg.Rights[5])}},
	}
	if !reflect.DeepEqual(sig.Flags, wantFlags) {
		t.Errorf("flags\n got %+v\nwant %+v", sig.Flags, wantFlags)
	}
	if !reflect.DeepEqual(sig.Ownership.Owners, co.Holders) || sig.Ownership.Since != date(2015, 1, 1) || sig.Ownership.RecentTransfer {
		t.Errorf("ownership %+v", sig.Ownership)
	}
	if !reflect.DeepEqual(sig.Unrecognized, []EntryRef{ref(reg.Ownership[9])}) {
		t.Errorf("unrecognized %+v", sig.Unrecognized)
	}
	if sig.Ratio != nil {
		t.Errorf("a ratio without a price: %+v", sig.Ratio)
	}

	// A trust makes the trustee the owner, and is flagged.
	trust := own("11", "소유권이전", KindTrust, 0)
	trust.Holders = []Party{{Role: "수탁자", Name: "주식회사 한국토지신탁", ID: "124120-5696864"}}
	trust.Received = date(2025, 6, 1)
	reg.Ownership = append(reg.Ownership, trust)
	sig = Analyze(reg, Options{Now: date(2026, 1, 1)})
	if !reflect.DeepEqual(sig.Ownership.Owners, trust.Holders) || !sig.Ownership.RecentTransfer ||
		!reflect.DeepEqual(sig.Flags[5], Flag{Kind: KindTrust, Entries: []EntryRef{trust.Ref()}}) {
		t.Errorf("with a trust: ownership %+v, flags %+v", sig.Ownership, sig.Flags)
	}
}

func TestAnalyzeNilAndHugeAmounts(t *testing.T) {
	t.Parallel()
	sig := Analyze(nil, Options{})
	if sig.Ownership.Owners == nil || sig.Flags == nil || sig.Mortgages.Entries == nil || sig.Unrecognized == nil || sig.ParserVersion != ParserVersion {
		t.Errorf("Analyze(nil) = %+v; want empty lists, not nulls", sig)
	}
	huge := &Registry{Rights: []Entry{
		{Section: SectionRights, Rank: "1", Kind: KindMortgage, Amount: math.MaxInt64 - 1},
		{Section: SectionRights, Rank: "2", Kind: KindMortgage, Amount: math.MaxInt64 - 1},
	}}
	sig = Analyze(huge, Options{Deposit: 1, Price: 1})
	if sig.Mortgages.Total != math.MaxInt64 || sig.Ratio.Value <= 0 {
		t.Errorf("huge amounts: %+v %+v", sig.Mortgages, sig.Ratio)
	}
}

// TestSignalsJSON pins the JSON shape clients and the jsonb column see.
func TestSignalsJSON(t *testing.T) {
	t.Parallel()
	reg, err := Parse(cleanText)
	if err != nil {
		t.Fatal(err)
	}
	sig := Analyze(reg, Options{Now: date(2020, 1, 1), Deposit: 200_000_000, Price: 800_000_000})
	b, err := json.Marshal(sig)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"parser_version":` + strconv.Itoa(ParserVersion) + `,` +
		`"ownership":{"owners":[{"role":"소유자","name":"김민준","id":"750101-*******"}],"since":"2019-05-02T00:00:00Z","recent_transfer":true,` +
		`"entries":[{"section":"ownership","rank":"2","purpose":"소유권이전","kind":"ownership_transfer"}]},` +
		`"mortgages":{"total":360000000,"entries":[{"section":"rights","rank":"1","purpose":"근저당권설정","kind":"mortgage"}]},` +
		`"jeonse":{"total":0,"entries":[]},"flags":[],` +
		`"ratio":{"mortgages":360000000,"jeonse":0,"leases":0,"deposit":200000000,"price":800000000,"value":0.7,"entries":[{"section":"rights","rank":"1","purpose":"근저당권설정","kind":"mortgage"}]},` +
		`"unrecognized":[]}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}

	b, err = json.Marshal(reg.Ownership[3])
	if err != nil {
		t.Fatal(err)
	}
	want = `{"section":"ownership","rank":"4","purpose":"3번가압류등기말소","kind":"cancellation",` +
		`"received":"2021-06-01T00:00:00Z","receipt_no":4567,"cause_date":"2021-05-30T00:00:00Z","cause":"해제",` +
		`"holders":[],"cancels":"3","cancelled":false,"text":"4 3번가압류등기말소 2021년6월1일 2021년5월30일 해제\n제4567호"}`
	if string(b) != want {
		t.Errorf("entry JSON\n got %s\nwant %s", b, want)
	}
	var back Registry
	b, _ = json.Marshal(reg)
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, reg) {
		t.Errorf("a registry does not survive JSON: %v", err)
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("registry JSON has nulls: %s", b)
	}
}
