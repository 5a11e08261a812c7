package issuer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The page is laid out once, in millimetres, as a list of text and line
// operations per page; the text PDF and the image-only PDF both draw that
// list. Line breaks use a conservative width estimate (estimateWidth) so
// that layout needs no font, Content can report the page count, and every
// line fits its cell whatever the real glyph widths (a test checks this
// against NanumGothic).

const (
	pageW, pageH  = 210.0, 297.0
	marginX       = 12.0
	contentW      = pageW - 2*marginX
	contentTop    = 14.0
	contentBottom = 276.0
	footerRule    = 281.0
	footerBase    = 286.0

	titleSize   = 15.0
	headSize    = 9.0
	sectionSize = 10.0
	tableSize   = 8.0
	footerSize  = 7.5

	lineWidth = 0.2
	cellPad   = 1.2
)

// kst is the zone of 열람일시. A fixed zone needs no tzdata on the machine.
var kst = time.FixedZone("KST", 9*60*60)

type align int

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

// textOp draws s on the baseline y inside the box x0..x1.
type textOp struct {
	x0, x1, y float64
	size      float64 // points
	align     align
	strike    bool // 말소: a line through the text
	s         string
}

type lineOp struct {
	x0, y0, x1, y1 float64
	width          float64
}

type pageOps struct {
	texts []textOp
	lines []lineOp
}

type column struct {
	label string
	width float64
	align align
}

type tableRow struct {
	cells     [][]string // per column, logical lines; each is wrapped to the column
	cancelled bool
}

type table struct {
	title string
	cols  []column
	rows  []tableRow
}

func ptToMM(pt float64) float64 { return pt * 25.4 / 72 }

// Layout varies the printed form within what the office's certificates
// show: the size of the tables' text, the spacing of their lines and the
// widths of the 갑구 and 을구 columns. The zero Layout is the simulator's
// form; a development set printed in another (see DevLayout) is not the
// form the readers were tuned on.
type Layout struct {
	TableSize   float64 // points of the tables' text; 8 when 0
	LineSpacing float64 // a line's height in ems of its text; 1.3 when 0
	// RightsColumns are the widths in mm of 순위번호, 등기목적, 접수,
	// 등기원인 and 권리자 및 기타사항; when all 0 (or not summing to the
	// content's 186 mm) 16, 30, 28, 34 and 78.
	RightsColumns [5]float64
	// SplitRows splits a row that does not fit the rest of a page between
	// two of its lines: its first lines close the page, the rest open the
	// next under the section's continued title and header, as the office
	// prints a long row. When false a row is kept whole on the next page.
	SplitRows bool
	// CauseLines prints a 등기원인's date and its words on lines of their
	// own (2019년3월5일 / 매매), as the office's form does; when false they
	// share a line and wrap where the column ends.
	CauseLines bool
	// Closing prints, after -- 이 하 여 백 --, what an issued copy closes
	// with: its office, the notice that a 열람 copy has no legal effect and
	// the form's notes (실선으로 그어진 부분은 말소사항을 표시함, …).
	Closing bool
}

// DevLayout is a form the office also prints, unlike the simulator's: a
// larger table text (9 points) on wider line spacing, a narrower 순위번호
// and 등기원인 and a wider 등기목적 and 접수 (long purposes such as
// 소유권이전청구권가등기 wrap as they do on many certificates).
var DevLayout = Layout{TableSize: 9, LineSpacing: 1.45, RightsColumns: [5]float64{13, 33, 31, 31, 78}}

// DevSplitLayout differs from the simulator's form in structure, not only
// in measure: rows split across page breaks (SplitRows), the 등기원인's
// date on a line of its own (CauseLines), a narrow 권리자 및 기타사항 so
// that holders and their addresses wrap, and the text a little smaller
// (7.5 points) on tighter spacing, and the notes an issued copy closes
// with after its end (Closing).
var DevSplitLayout = Layout{TableSize: 7.5, LineSpacing: 1.25, RightsColumns: [5]float64{15, 36, 30, 43, 62},
	SplitRows: true, CauseLines: true, Closing: true}

// withDefaults fills the zero fields of f with the simulator's form.
func (f Layout) withDefaults() Layout {
	if f.TableSize <= 0 {
		f.TableSize = tableSize
	}
	if f.LineSpacing <= 0 {
		f.LineSpacing = 1.3
	}
	sum := 0.0
	for _, w := range f.RightsColumns {
		sum += max(w, 0)
	}
	if math.Abs(sum-contentW) > 0.01 || slices.Contains(f.RightsColumns[:], 0) {
		for i, c := range rightsColumns {
			f.RightsColumns[i] = c.width
		}
	}
	return f
}

func (l *layouter) lineHeight(size float64) float64 { return ptToMM(size) * l.form.LineSpacing }

// estimateWidth returns an upper bound of the printed width of s in mm:
// NanumGothic's Hangul and symbols are 0.94 em, digits 0.61 em, and the widest
// ASCII glyph (%) 1.09 em.
func estimateWidth(s string, size float64) float64 {
	em := ptToMM(size)
	w := 0.0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r == ' ', strings.ContainsRune(".,-()*:/~[]", r):
			w += 0.62 * em
		case r < 0x80:
			w += 1.1 * em
		default:
			w += 1.0 * em
		}
	}
	return w
}

// wrapText breaks s into lines no wider than width, at spaces where possible.
func wrapText(s string, width, size float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		cand := word
		if cur != "" {
			cand = cur + " " + word
		}
		if estimateWidth(cand, size) <= width {
			cur = cand
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
			cur = ""
		}
		for estimateWidth(word, size) > width {
			// A word longer than the cell: break it between runes.
			rs := []rune(word)
			n := 1
			for n < len(rs) && estimateWidth(string(rs[:n+1]), size) <= width {
				n++
			}
			lines = append(lines, string(rs[:n]))
			word = string(rs[n:])
		}
		cur = word
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

type layouter struct {
	form  Layout // with its defaults
	reg   Registry
	pages []pageOps
	y     float64
	fresh bool // nothing but the running header on the current page yet
}

func (l *layouter) page() *pageOps { return &l.pages[len(l.pages)-1] }

func (l *layouter) text(op textOp) { l.page().texts = append(l.page().texts, op) }

func (l *layouter) line(x0, y0, x1, y1 float64) {
	l.page().lines = append(l.page().lines, lineOp{x0, y0, x1, y1, lineWidth})
}

func (l *layouter) newPage() {
	l.pages = append(l.pages, pageOps{})
	l.y = contentTop
	if len(l.pages) == 1 {
		l.y += 8
		l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: titleSize, align: alignCenter, s: l.reg.Title})
		l.y += 9
		no := "고유번호 " + l.reg.FormattedUniqueNo()
		noW := estimateWidth(no, headSize)
		addr := wrapText("[집합건물] "+l.reg.Address, contentW-noW-6, headSize)
		l.text(textOp{x0: pageW - marginX - noW, x1: pageW - marginX, y: l.y, size: headSize, align: alignRight, s: no})
		for i, a := range addr {
			if i > 0 {
				l.y += l.lineHeight(headSize)
			}
			l.text(textOp{x0: marginX, x1: pageW - marginX - noW - 6, y: l.y, size: headSize, s: a})
		}
		l.y += 6
	} else {
		hdr := wrapText("[집합건물] "+l.reg.Address, contentW, l.form.TableSize)
		l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: l.form.TableSize, s: hdr[0]})
		l.y += 5
	}
	l.fresh = true
}

// fits reports whether h more millimetres fit on the current page.
func (l *layouter) fits(h float64) bool { return l.y+h <= contentBottom }

func (l *layouter) wrapRow(cols []column, cells [][]string, size float64) ([][]string, float64) {
	wrapped := make([][]string, len(cols))
	n := 1
	for i, c := range cols {
		if i >= len(cells) {
			break
		}
		for _, logical := range cells[i] {
			for _, part := range strings.Split(logical, "\n") {
				wrapped[i] = append(wrapped[i], wrapText(part, c.width-2*cellPad, size)...)
			}
		}
		n = max(n, len(wrapped[i]))
	}
	return wrapped, float64(n)*l.lineHeight(size) + 2*cellPad
}

func (l *layouter) drawRow(cols []column, wrapped [][]string, h float64, size float64, header, cancelled bool) {
	top := l.y
	x := marginX
	l.line(marginX, top, marginX+contentW, top)
	l.line(marginX, top+h, marginX+contentW, top+h)
	l.line(x, top, x, top+h)
	for i, c := range cols {
		al := c.align
		if header {
			al = alignCenter
		}
		for j, s := range wrapped[i] {
			base := top + cellPad + float64(j)*l.lineHeight(size) + ptToMM(size)*0.95
			l.text(textOp{x0: x + cellPad, x1: x + c.width - cellPad, y: base, size: size, align: al, strike: cancelled, s: s})
		}
		x += c.width
		l.line(x, top, x, top+h)
	}
	l.y += h
	l.fresh = false
}

func (l *layouter) table(t table) {
	titleH := l.lineHeight(sectionSize) + 2
	headerCells := make([][]string, len(t.cols))
	for i, c := range t.cols {
		headerCells[i] = []string{c.label}
	}
	header, headerH := l.wrapRow(t.cols, headerCells, l.form.TableSize)

	// Keep the section title with its header and first row.
	first := 0.0
	if len(t.rows) > 0 {
		_, first = l.wrapRow(t.cols, t.rows[0].cells, l.form.TableSize)
	}
	if !l.fresh && !l.fits(titleH+headerH+first) {
		l.newPage()
	}
	l.y += titleH - 2
	l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: sectionSize, s: t.title})
	l.y += 2
	l.drawRow(t.cols, header, headerH, l.form.TableSize, true, false)

	for _, r := range t.rows {
		cells, h := l.wrapRow(t.cols, r.cells, l.form.TableSize)
		if !l.fits(h) {
			if l.form.SplitRows {
				cells, h = l.splitRow(t.cols, cells, h, r.cancelled)
			}
			l.newPage()
			l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y + l.lineHeight(sectionSize) - 2, size: sectionSize, s: t.title + " (계속)"})
			l.y += titleH
			l.drawRow(t.cols, header, headerH, l.form.TableSize, true, false)
		}
		l.drawRow(t.cols, cells, h, l.form.TableSize, false, r.cancelled)
	}
	l.y += 3
}

// splitRow draws the lines of a wrapped row that fit the rest of the page
// as a row of their own and returns the rest and its height; a row none of
// whose lines fit, or all of whose lines would, is returned whole.
func (l *layouter) splitRow(cols []column, cells [][]string, h float64, cancelled bool) ([][]string, float64) {
	lh := l.lineHeight(l.form.TableSize)
	n := int((contentBottom - l.y - 2*cellPad) / lh)
	total := int(math.Round((h - 2*cellPad) / lh))
	if n < 1 || n >= total {
		return cells, h
	}
	head := make([][]string, len(cells))
	tail := make([][]string, len(cells))
	for i, c := range cells {
		head[i] = c[:min(n, len(c))]
		tail[i] = c[min(n, len(c)):]
	}
	l.drawRow(cols, head, float64(n)*lh+2*cellPad, l.form.TableSize, false, cancelled)
	return tail, float64(total-n)*lh + 2*cellPad
}

// layout places reg on pages. viewedAt is printed in the footer as 열람일시.
func layout(reg Registry, viewedAt time.Time, form Layout) []pageOps {
	l := &layouter{reg: reg, form: form.withDefaults()}
	l.newPage()
	for _, t := range tables(reg, l.rightsColumns(), l.form.CauseLines) {
		l.table(t)
	}
	if !l.fits(l.lineHeight(headSize)) {
		l.newPage()
	}
	l.y += l.lineHeight(headSize)
	l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: headSize, align: alignCenter, s: "-- 이 하 여 백 --"})
	if l.form.Closing {
		l.closing()
	}
	if reg.Summary {
		l.summary()
	}

	viewed := viewedAt.In(kst)
	stamp := fmt.Sprintf("열람일시 : %d년%02d월%02d일 %02d시%02d분%02d초",
		viewed.Year(), viewed.Month(), viewed.Day(), viewed.Hour(), viewed.Minute(), viewed.Second())
	for i := range l.pages {
		p := &l.pages[i]
		p.lines = append(p.lines, lineOp{marginX, footerRule, pageW - marginX, footerRule, lineWidth})
		p.texts = append(p.texts,
			textOp{x0: marginX, x1: pageW - marginX, y: footerBase, size: footerSize, s: stamp},
			textOp{x0: marginX, x1: pageW - marginX, y: footerBase, size: footerSize, align: alignCenter, s: "관할등기소 " + reg.Office},
			textOp{x0: marginX, x1: pageW - marginX, y: footerBase, size: footerSize, align: alignRight, s: strconv.Itoa(i+1) + "/" + strconv.Itoa(len(l.pages))},
		)
	}
	return l.pages
}

// closing draws the lines an issued copy closes with after its end.
func (l *layouter) closing() {
	for _, s := range []struct {
		text  string
		align align
	}{
		{"관할등기소 " + l.reg.Office, alignLeft},
		{"", alignLeft},
		{"이 등기사항증명서는 열람용이므로 출력하신 등기사항증명서는 법적인 효력이 없습니다.", alignCenter},
		{"", alignLeft},
		{"* 실선으로 그어진 부분은 말소사항을 표시함. * 기록사항 없는 갑구, 을구는 '기록사항 없음'으로 표시함.", alignLeft},
		{"* 증명서는 컬러 또는 흑백으로 출력 가능함.", alignLeft},
	} {
		lh := l.lineHeight(l.form.TableSize)
		if s.text == "" {
			l.y += lh
			continue
		}
		for _, w := range wrapText(s.text, contentW, l.form.TableSize) {
			if !l.fits(lh) {
				l.newPage()
			}
			l.y += lh
			l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: l.form.TableSize, align: s.align, s: w})
		}
	}
}

// summaryColumns are the columns of the summary's 갑구 and 을구 parts.
var summaryColumns = []column{
	{"순위번호", 16, alignCenter},
	{"등기목적", 34, alignLeft},
	{"접수정보", 32, alignLeft},
	{"주요등기사항", 72, alignLeft},
	{"대상소유자", 32, alignLeft},
}

// summary draws the 주요 등기사항 요약 (참고용) that online issuance prints
// after the document, from a page of its own: the live 소유지분 and the
// live entries of 갑구 (but ownership) and 을구, as the office lists them.
func (l *layouter) summary() {
	reg := l.reg
	l.newPage()
	l.y += 6
	l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: titleSize, align: alignCenter, s: "주요 등기사항 요약 (참고용)"})
	l.y += 8
	for _, s := range []string{
		"[ 주 의 사 항 ]",
		"본 주요 등기사항 요약은 증명서상에 말소되지 않은 사항을 간략히 요약한 것으로 증명서로서의 기능을 제공하지 않습니다.",
		"실제 권리사항 파악을 위해서는 발급된 증명서를 필히 확인하시기 바랍니다.",
		"고유번호 " + reg.FormattedUniqueNo(),
		"[집합건물] " + reg.Address,
	} {
		for _, w := range wrapText(s, contentW, l.form.TableSize) {
			l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: l.form.TableSize, s: w})
			l.y += l.lineHeight(l.form.TableSize)
		}
	}
	l.y += 2
	owners := table{
		title: "1. 소유지분현황 ( 갑구 )",
		cols: []column{
			{"등기명의인", 36, alignLeft}, {"(주민)등록번호", 30, alignLeft}, {"최종지분", 22, alignLeft},
			{"주 소", 82, alignLeft}, {"순위번호", 16, alignCenter},
		},
	}
	os := reg.Owners()
	slices.SortStableFunc(os, func(a, b Owner) int { return strings.Compare(a.Name, b.Name) }) // 가나다 순
	for _, o := range os {
		share := o.Fraction
		if share == "" {
			share = "단독소유"
		}
		owners.rows = append(owners.rows, tableRow{cells: [][]string{{o.Name + " (" + o.Role + ")"}, {o.ID}, {share}, {o.Address}, {o.Rank}}})
	}
	l.table(owners)
	for _, part := range []struct {
		title   string
		entries []Entry
	}{
		{"2. 소유지분을 제외한 소유권에 관한 사항 ( 갑구 )", reg.Ownership},
		{"3. (근)저당권 및 전세권 등 ( 을구 )", reg.Rights},
	} {
		t := table{title: part.title, cols: summaryColumns}
		owner := strings.Join(ownerNames(reg), ", ")
		for _, e := range ActiveEntries(part.entries) {
			if e.Type == TypePreservation || e.Type == TypeTransfer || e.Type == TypeTrust {
				continue
			}
			var main []string
			if e.AmountLabel != "" {
				main = append(main, e.AmountLabel+" "+fmtWon(e.Amount))
			}
			if role := summaryRole[e.Type]; role != "" && e.Holder != "" {
				main = append(main, role+" "+e.Holder)
			}
			t.rows = append(t.rows, tableRow{cells: [][]string{
				{e.Rank}, {e.Purpose}, {fmtDate(e.Received) + " 제" + strconv.Itoa(e.ReceiptNo) + "호"}, main, {owner},
			}})
		}
		if len(t.rows) == 0 {
			t.rows = []tableRow{{cells: [][]string{nil, {"기록사항 없음"}, nil, nil, nil}}}
		}
		l.table(t)
	}
	for _, s := range []string{
		"[ 참 고 사 항 ]",
		"가. 등기기록에서 유효한 지분을 가진 소유자 혹은 공유자 현황을 가나다 순으로 표시합니다.",
		"나. 최종지분은 등기명의인이 가진 최종지분이며, 2개 이상의 순위번호에 지분을 가진 경우 그 지분을 합산하였습니다.",
		"다. 대상소유자가 명확하지 않은 경우 '확인불가'로 표시될 수 있습니다. 정확한 권리사항은 등기사항증명서를 확인하시기 바랍니다.",
	} {
		for _, w := range wrapText(s, contentW, l.form.TableSize) {
			if !l.fits(l.lineHeight(l.form.TableSize)) {
				l.newPage()
			}
			l.text(textOp{x0: marginX, x1: pageW - marginX, y: l.y, size: l.form.TableSize, s: w})
			l.y += l.lineHeight(l.form.TableSize)
		}
	}
}

// summaryRole is the holder's label the summary prints for each type.
var summaryRole = map[EntryType]string{
	TypeProvisionalAttachment: "채권자", TypeInjunction: "채권자", TypeAuction: "채권자", TypeSeizure: "권리자",
	TypeProvisionalRegistration: "가등기권자", TypeMortgage: "근저당권자", TypeJeonse: "전세권자",
	TypeLeaseRegistration: "임차권자",
}

var rightsColumns = []column{
	{"순위번호", 16, alignCenter},
	{"등 기 목 적", 30, alignLeft},
	{"접 수", 28, alignLeft},
	{"등 기 원 인", 34, alignLeft},
	{"권리자 및 기타사항", 78, alignLeft},
}

// rightsColumns are the columns of 갑구 and 을구 in l's form.
func (l *layouter) rightsColumns() []column {
	cols := slices.Clone(rightsColumns)
	for i := range cols {
		cols[i].width = l.form.RightsColumns[i]
	}
	return cols
}

// tables turns reg into the printed tables, in document order, 갑구 and
// 을구 in rights (causeLines: see Layout.CauseLines).
func tables(reg Registry, rights []column, causeLines bool) []table {
	building := table{
		title: "【 표 제 부 】 ( 1동의 건물의 표시 )",
		cols: []column{
			{"표시번호", 16, alignCenter}, {"접 수", 24, alignLeft}, {"소재지번, 건물명칭 및 번호", 50, alignLeft},
			{"건 물 내 역", 52, alignLeft}, {"등기원인 및 기타사항", 44, alignLeft},
		},
	}
	for _, b := range reg.Building {
		loc := []string{b.Location}
		if b.RoadAddress != "" {
			loc = append(loc, "[도로명주소]", b.RoadAddress)
		}
		inner := []string{b.Structure}
		for _, f := range b.Floors {
			inner = append(inner, f.Name+" "+fmtArea(f.AreaM2))
		}
		building.rows = append(building.rows, tableRow{
			cells:     [][]string{{strconv.Itoa(b.No)}, {fmtDate(b.Received)}, loc, inner, {b.Remarks}},
			cancelled: b.Cancelled,
		})
	}

	land := table{
		title: "( 대지권의 목적인 토지의 표시 )",
		cols: []column{
			{"표시번호", 16, alignCenter}, {"소 재 지 번", 80, alignLeft}, {"지 목", 20, alignCenter},
			{"면 적", 30, alignRight}, {"등기원인 및 기타사항", 40, alignLeft},
		},
	}
	for _, r := range reg.Land {
		land.rows = append(land.rows, tableRow{cells: [][]string{
			{strconv.Itoa(r.No)}, {r.Location}, {r.Category}, {fmtArea(r.AreaM2)}, {r.Remarks},
		}})
	}

	unit := table{
		title: "【 표 제 부 】 ( 전유부분의 건물의 표시 )",
		cols: []column{
			{"표시번호", 16, alignCenter}, {"접 수", 24, alignLeft}, {"건 물 번 호", 50, alignLeft},
			{"건 물 내 역", 52, alignLeft}, {"등기원인 및 기타사항", 44, alignLeft},
		},
	}
	right := table{
		title: "( 대지권의 표시 )",
		cols: []column{
			{"표시번호", 16, alignCenter}, {"대지권종류", 60, alignLeft}, {"대지권비율", 60, alignLeft},
			{"등기원인 및 기타사항", 50, alignLeft},
		},
	}
	for _, u := range reg.Unit {
		unit.rows = append(unit.rows, tableRow{cells: [][]string{
			{strconv.Itoa(u.No)}, {fmtDate(u.Received)}, {u.Number}, {u.Structure + " " + fmtArea(u.AreaM2)}, {u.Remarks},
		}})
		right.rows = append(right.rows, tableRow{cells: [][]string{
			{strconv.Itoa(u.No)}, {u.LandRight}, {u.LandRatio}, {u.LandRemarks},
		}})
	}

	gap := table{title: "【 갑 구 】 ( 소유권에 관한 사항 )", cols: rights, rows: entryRows(reg.Ownership, causeLines)}
	eul := table{title: "【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )", cols: rights, rows: entryRows(reg.Rights, causeLines)}
	if len(eul.rows) == 0 {
		eul.rows = []tableRow{{cells: [][]string{nil, nil, nil, nil, {"기록사항 없음"}}}}
	}
	return []table{building, land, unit, right, gap, eul}
}

func entryRows(entries []Entry, causeLines bool) []tableRow {
	rows := make([]tableRow, 0, len(entries))
	for _, e := range entries {
		cause := []string{e.Cause}
		if date, words, ok := strings.Cut(e.Cause, " "); causeLines && ok && strings.HasSuffix(date, "일") {
			cause = []string{date, words}
		}
		rows = append(rows, tableRow{
			cells: [][]string{
				{e.Rank},
				{e.Purpose},
				{fmtDate(e.Received), "제" + strconv.Itoa(e.ReceiptNo) + "호"},
				cause,
				e.Details,
			},
			cancelled: e.Cancelled,
		})
	}
	return rows
}
