package analysis

import "time"

// ParserVersion identifies the rules Parse and Analyze apply. It increases
// whenever their output for some input changes, so that stored analyses made
// by an older parser can be found and recomputed.
const ParserVersion = 15

// Registry is what Parse read from a 등기사항전부증명서.
type Registry struct {
	ParserVersion int   `json:"parser_version"`
	Title         Title `json:"title"`
	// Ownership is 갑구 (소유권에 관한 사항), Rights 을구 (소유권 이외의 권리에
	// 관한 사항), each in 순위번호 order.
	Ownership []Entry `json:"ownership"`
	Rights    []Entry `json:"rights"`
	// Warnings are what the parser had to guess or could not read, for
	// operators: "rights rank 1: purpose \"근자당균설공\" not recognised". A
	// text layer gives none.
	Warnings []string `json:"warnings"`
	// Coverage is what the parser saw of the document's structure: the
	// headings and the end marker, and the 순위번호 it had to infer. Judge
	// reads it.
	Coverage Coverage `json:"coverage"`
	// PrintedAt is when the copy was printed, as its footers say
	// (열람일시, a time in Korea), in UTC; the earliest when pages differ (a digit
	// misread), nil when no footer's was read.
	PrintedAt *time.Time `json:"printed_at,omitempty"`
	// Summary is the 주요 등기사항 요약 (참고용) printed after the document,
	// when one was read: what the office lists as live. It is a summary,
	// not entries; Judge compares it with them.
	Summary *Summary `json:"summary,omitempty"`
	// Conflicts are what the document's own structure contradicts in the
	// read: a 말소 naming a purpose its target does not have, a 부기 naming
	// no entry. Judge reports each.
	Conflicts []Conflict `json:"conflicts,omitempty"`
}

// Conflict is a place where the read contradicts what the registry's form
// guarantees: one of them was misread, or the document is not as issued.
type Conflict struct {
	Code    string  `json:"code"` // a Reason code: CANCELLATION_MISMATCH, …
	Section Section `json:"section"`
	Rank    string  `json:"rank"`
	Message string  `json:"message"`
}

// Summary is the 주요 등기사항 요약 (참고용) that certificates issued online
// print after the document: the live 소유지분 (1. 소유지분현황), the live
// entries of 갑구 other than ownership (2.) and those of 을구 (3.).
type Summary struct {
	Owners    []SummaryOwner `json:"owners"`
	Ownership []SummaryEntry `json:"ownership"`
	Rights    []SummaryEntry `json:"rights"`
	// Sections counts the numbered parts (1. 2. 3.) whose heading was read:
	// 3 when the whole summary was.
	Sections int `json:"sections"`
}

// SummaryOwner is a row of 소유지분현황: a holder of a live share.
type SummaryOwner struct {
	Name  string `json:"name"`
	Role  string `json:"role"`  // 소유자, 공유자
	Share string `json:"share"` // 단독소유, 2분의 1
	Rank  string `json:"rank"`  // the 순위번호 of the entry that gave it
	// ID is the (주민)등록번호 as the summary prints it, "" when unread.
	ID string `json:"id,omitempty"`
}

// SummaryEntry is a row of the summary's 갑구 or 을구 part.
type SummaryEntry struct {
	Rank    string `json:"rank"`
	Purpose string `json:"purpose"`
	Kind    Kind   `json:"kind"`
	Amount  int64  `json:"amount,omitzero"`
}

// Coverage is the structure of the document as read.
type Coverage struct {
	// Title is set when the certificate's title (등기사항전부증명서) was
	// read, ColumnHeader when a column header of 갑구 or 을구 was.
	Title            bool `json:"title,omitempty"`
	ColumnHeader     bool `json:"column_header,omitempty"`
	TitleHeading     bool `json:"title_heading"`     // a 【표제부】 heading
	OwnershipHeading bool `json:"ownership_heading"` // 【갑구】
	RightsHeading    bool `json:"rights_heading"`    // 【을구】
	// RightsEmpty is set when 을구 reads 기록사항 없음 (no entries).
	RightsEmpty bool `json:"rights_empty,omitempty"`
	// EndMarker is set when -- 이하여백 -- (nothing follows) was read: the
	// document was read to its end.
	EndMarker bool `json:"end_marker"`
	// GuessedRanks are the entries (section/rank) whose 순위번호 was not
	// read, or read out of order, and was taken from their neighbours.
	GuessedRanks []string `json:"guessed_ranks"`
	// StrikesRead is set when the OCR found strike-through lines on the
	// pages (ApplyStrikes): an entry with none through it was looked at.
	StrikesRead bool `json:"strikes_read,omitempty"`
	// UnplacedRows are rows of 갑구 or 을구 whose first line (순위번호,
	// 등기목적, 접수 date) was not read while lines of them were: a second
	// 접수번호 inside an entry, or lines before a section's first entry.
	// Each is section/rank of the entry read before it (rank 0: none).
	UnplacedRows []string `json:"unplaced_rows,omitempty"`
	// PagesPrinted is the page count the footers print (the 2 of 1/2),
	// when every footer read agrees on it; 0 when none was read.
	PagesPrinted int `json:"pages_printed,omitempty"`
	// PagesRead is the number of pages in the text Parse read.
	PagesRead int `json:"pages_read,omitempty"`
	// MoreDocuments is set when a document's form begins again after the
	// end (-- 이하여백 --): a certificate's title, a section's heading or
	// column header, which the summary never prints (secondDocument). The
	// file holds more than one document; Parse read the first, and nothing
	// after the line that showed it.
	MoreDocuments bool `json:"more_documents,omitempty"`
	// FooterTotals are the page totals the footers print, when they print
	// more than one (1/3 on one page, 2/4 on another): pages of two
	// documents, or a footer misread. PagesTwice are the page numbers
	// (2/3) printed on more than one page.
	FooterTotals []int    `json:"footer_totals,omitempty"`
	PagesTwice   []string `json:"pages_twice,omitempty"`
	// OtherHeaders are the later pages whose running header prints
	// another address than the first page's ("page 2: 서울특별시 …"), at
	// most a few: pages of another property's registry, or a header
	// misread.
	OtherHeaders []string `json:"other_headers,omitempty"`
}

// Title is the 표제부 of a unit in a 집합건물.
type Title struct {
	Address        string  `json:"address"`         // as printed after [집합건물]
	UniqueNo       string  `json:"unique_no"`       // 고유번호, 1146-2010-012345
	BuildingName   string  `json:"building_name"`   // 건물명칭, e.g. 래미안; empty when not read
	BuildingNumber string  `json:"building_number"` // 제103동
	UnitNumber     string  `json:"unit_number"`     // 건물번호 of the unit: 제15층 제1502호
	AreaM2         float64 `json:"area_m2"`         // 전유부분 area in ㎡; 0 when not read
}

// Section is 갑구 or 을구.
type Section string

// The sections of a registry's entries.
const (
	SectionOwnership Section = "ownership" // 갑구
	SectionRights    Section = "rights"    // 을구
)

// Kind is what an entry does, whatever its wording. The values match the
// simulator's issuer.EntryType.
type Kind string

// The kinds of entries.
const (
	KindPreservation            Kind = "ownership_preservation"   // 소유권보존
	KindTransfer                Kind = "ownership_transfer"       // 소유권이전, 소유권일부이전
	KindTrust                   Kind = "trust"                    // 소유권이전 whose cause is 신탁, or 신탁
	KindProvisionalAttachment   Kind = "provisional_attachment"   // 가압류
	KindSeizure                 Kind = "seizure"                  // 압류
	KindInjunction              Kind = "injunction"               // 가처분
	KindProvisionalRegistration Kind = "provisional_registration" // 소유권이전청구권가등기 and other 가등기
	KindAuction                 Kind = "auction"                  // 임의경매개시결정, 강제경매개시결정
	KindMortgage                Kind = "mortgage"                 // 근저당권설정, 저당권설정
	KindJeonse                  Kind = "jeonse"                   // 전세권설정
	KindLeaseRegistration       Kind = "lease_registration"       // 주택임차권 by 임차권등기명령
	KindLease                   Kind = "lease"                    // 임차권설정: a lease registered by agreement, with its 임차보증금
	KindSurfaceRight            Kind = "surface_right"            // 지상권설정, 구분지상권설정
	KindCancellation            Kind = "cancellation"             // N번…등기말소
	// A 부기등기 (ranked N-1) changes the entry it names (Refers) and never
	// cancels it.
	KindAmendment     Kind = "amendment"      // N번근저당권변경, N번전세권변경: the amount or the terms
	KindRightTransfer Kind = "right_transfer" // N번근저당권이전, N번전세권이전: the holder
	KindPledge        Kind = "pledge"         // N번근저당권부근질권, 근질권설정: a right on the right
	KindOther         Kind = "other"          // recognised, not judged: 등기명의인표시변경, 환매특약, …
	KindUnknown       Kind = "unknown"        // the purpose could not be read
)

// Entry is one 갑구 or 을구 entry.
type Entry struct {
	Section Section `json:"section"`
	Rank    string  `json:"rank"` // 순위번호: 3, or 1-1 for a 부기등기
	// Purpose is the 등기목적 as read, without spaces: 근저당권설정,
	// 3번근저당권설정등기말소.
	Purpose   string    `json:"purpose"`
	Kind      Kind      `json:"kind"`
	Received  time.Time `json:"received,omitzero"`   // 접수 date (UTC midnight)
	ReceiptNo int       `json:"receipt_no,omitzero"` // 접수번호: 제N호
	CauseDate time.Time `json:"cause_date,omitzero"` // 등기원인 date
	// Cause is the kind of 등기원인: 매매, 설정계약, 신탁, 가압류결정, 해지, …
	Cause string `json:"cause,omitempty"`

	// Holders are the right holders of 권리자 및 기타사항: the 소유자,
	// 공유자 (with their 지분) or 수탁자 of an ownership entry, the 채권자,
	// 권리자, 가등기권자, 근저당권자, 전세권자 or 임차권자 of the others.
	Holders []Party `json:"holders"`
	Debtor  string  `json:"debtor,omitempty"` // 채무자 of a 근저당권
	// AmountLabel names Amount: 채권최고액, 청구금액, 전세금, 임차보증금 or
	// 거래가액. Amount is in won.
	AmountLabel string `json:"amount_label,omitempty"`
	Amount      int64  `json:"amount,omitzero"`

	Cancels string `json:"cancels,omitempty"` // for a 말소: the 순위번호 it cancels
	// Refers is the 순위번호 a purpose names without cancelling it: the 1
	// of 1번근저당권변경 (a 부기 that changes entry 1) or of
	// 1번홍길동지분전부이전 (a transfer of the share entry 1 gave 홍길동).
	Refers string `json:"refers,omitempty"`
	// ShareOf is the holder whose 지분 (share) a purpose concerns: 홍길동
	// in 2번홍길동지분전부이전 or 3번홍길동지분가압류. Empty when the
	// purpose concerns the whole property.
	ShareOf string `json:"share_of,omitempty"`
	// PartOnly is set on a transfer of part of what its holder had
	// (소유권일부이전, 지분일부이전): the earlier owners keep the rest.
	PartOnly    bool   `json:"part_only,omitempty"`
	Cancelled   bool   `json:"cancelled"`              // a 말소 entry names this one
	CancelledBy string `json:"cancelled_by,omitempty"` // the 순위번호 of that 말소
	// Inferred is set on an entry the text did not show (a struck-through
	// row the OCR could not read) and that is known only from the 말소 that
	// names it: its Purpose and Kind are the 말소's.
	Inferred bool `json:"inferred,omitempty"`
	// Struck is set when the page image shows the entry struck through
	// (ApplyStrikes), as a registry draws a cancelled entry. A struck entry
	// no 말소 names is Cancelled with no CancelledBy.
	Struck bool `json:"struck,omitempty"`
	// AmountUnread is the label of an amount that was printed but could not
	// be read (채권최고액 when its digits were garbled); empty otherwise.
	AmountUnread string `json:"amount_unread,omitempty"`

	// Corrections are the key facts of the entry that were not taken as
	// read: a letter read for a digit of an amount or a rank, a word of a
	// name put right. The verdict counts each as a guess.
	Corrections []Correction `json:"corrections,omitempty"`

	// Doubts are the key numbers of the entry read with a digit the OCR
	// was unsure of (MarkDoubts): taken as read, but perhaps misread. The
	// verdict counts one of a live key entry as a guess (LOW_CONFIDENCE).
	Doubts []Doubt `json:"doubts,omitempty"`

	// Text is the entry's text as read, its lines joined by newlines.
	Text string `json:"text"`
}

// Correction is a key fact taken otherwise than it was read.
type Correction struct {
	// Field is what was corrected.
	Field CorrectionField `json:"field"`
	Read  string          `json:"read"`  // as the text has it
	Taken string          `json:"taken"` // as the parser took it
}

// Doubt is a key number of an entry read with a digit below
// KeyDigitConfidence.
type Doubt struct {
	// Field is FieldAmount or FieldHolderID.
	Field CorrectionField `json:"field"`
	// Holder is the name of the holder whose number it is (FieldHolderID).
	Holder string `json:"holder,omitempty"`
	// Read is the word as the OCR read it.
	Read string `json:"read"`
	// Confidence is the OCR's confidence in its least sure digit, in [0, 1].
	Confidence float64 `json:"confidence"`
}

// CorrectionField names the key fact of an entry a Correction concerns.
// The API lists the same values (RegistryCorrectionField): a new one is
// added there too.
type CorrectionField string

// The facts a correction can concern.
const (
	FieldAmount   CorrectionField = "amount"    // 채권최고액, 전세금, …
	FieldHolder   CorrectionField = "holder"    // a holder's name
	FieldHolderID CorrectionField = "holder_id" // a holder's 주민등록번호 or 법인등록번호
	FieldReceived CorrectionField = "received"  // the 접수 date
	FieldRank     CorrectionField = "rank"      // the 순위번호
	FieldRefers   CorrectionField = "refers"    // the 순위번호 a 부기 refers to
	FieldCancels  CorrectionField = "cancels"   // the 순위번호 a 말소 cancels
)

// Live reports whether e is in force: neither cancelled nor a cancellation.
func (e Entry) Live() bool { return !e.Cancelled && e.Kind != KindCancellation }

// Ref returns the reference signals use for e.
func (e Entry) Ref() EntryRef {
	return EntryRef{Section: e.Section, Rank: e.Rank, Purpose: e.Purpose, Kind: e.Kind}
}

// Party is a right holder named in an entry.
type Party struct {
	// Role is the label printed before the name: 소유자, 공유자, 수탁자,
	// 채권자, 권리자, 가등기권자, 근저당권자, 전세권자 or 임차권자.
	Role string `json:"role"`
	// Name is the name without the spaces OCR adds or drops, but for the one
	// around 주식회사: 주식회사 국민은행, 농협은행 주식회사.
	Name string `json:"name"`
	// ID is the 주민등록번호 as printed, masked (750101-*******), or the
	// 법인등록번호 (110111-1234567); empty when none is printed.
	ID string `json:"id,omitempty"`
	// IDUnread is what was read where the name's registration number is
	// printed when it does not read as one (a misread mask: 470911-*8*##**):
	// the number is then unknown, and ID empty.
	IDUnread string `json:"idUnread,omitempty"`
	// Share is the 지분 of a 공유자: 2분의 1.
	Share string `json:"share,omitempty"`
}

// EntryRef names the entry behind a signal.
type EntryRef struct {
	Section Section `json:"section"`
	Rank    string  `json:"rank"`
	Purpose string  `json:"purpose"`
	Kind    Kind    `json:"kind"`
}
