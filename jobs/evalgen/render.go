package evalgen

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/signintech/gopdf"
)

// FontPath is the Korean font the documents are printed in: UnBatang, of
// Debian's fonts-unfonts-core (a serif, where the simulator prints in a
// sans).
var FontPath = "/usr/share/fonts/truetype/unfonts-core/UnBatang.ttf"

// Box is where part of a row is printed: a page (1-based) and the rows of
// points from the page's top, Top to Bottom.
type Box struct {
	Page        int
	Top, Bottom float64
}

// Printed is a document's PDF and where its rows are.
type Printed struct {
	PDF []byte
	// Pages is the page count; SummaryFrom the first page of the summary
	// (0 when there is none).
	Pages, SummaryFrom int
	// Boxes maps a row (section/rank) to the boxes it is printed in: two
	// when it runs over a page break.
	Boxes map[string][]Box
	// Width and Height of a page, in points.
	Width, Height float64
}

// The page, in points.
const (
	pageW, pageH = 595.28, 841.89
	left, right  = 40.0, 555.28
	top          = 52.0
	bottom       = 786.0
	footerY      = 812.0
	fontSize     = 8.5
	lineH        = 11.5
	pad          = 3.5
)

// entryColumns are the widths of 순위번호, 등기목적, 접수, 등기원인 and
// 권리자 및 기타사항.
var entryColumns = []float64{42, 92, 72, 96, 213.28}

var entryHeader = []string{"순위번호", "등 기 목 적", "접  수", "등 기 원 인", "권리자 및 기타사항"}

var summaryColumns = []float64{42, 98, 92, 190, 93.28}

var summaryHeader = []string{"순위번호", "등기목적", "접수정보", "주요등기사항", "대상소유자"}

var ownerColumns = []float64{110, 86, 60, 211.28, 48}

var ownerHeader = []string{"등기명의인", "(주민)등록번호", "최종지분", "주  소", "순위번호"}

var (
	fontOnce sync.Once
	fontData []byte
	fontErr  error
)

// printer lays out and draws a document.
type printer struct {
	pdf     *gopdf.GoPdf
	doc     *Document
	y       float64
	page    int
	printed *Printed
	header  []string // the column header to repeat over a row that goes on
	cols    []float64
}

// Print renders d as a text-layer PDF.
func Print(d *Document) (*Printed, error) {
	fontOnce.Do(func() { fontData, fontErr = os.ReadFile(FontPath) })
	if fontErr != nil {
		return nil, fmt.Errorf("evalgen: font: %w (install fonts-unfonts-core)", fontErr)
	}
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageW, H: pageH}})
	if err := pdf.AddTTFFontData("ub", fontData); err != nil {
		return nil, fmt.Errorf("evalgen: font: %w", err)
	}
	p := &printer{pdf: pdf, doc: d, printed: &Printed{Boxes: map[string][]Box{}, Width: pageW, Height: pageH}}
	p.newPage()
	p.font(14)
	p.center(top+8, "등기사항전부증명서(말소사항 포함) - 집합건물")
	p.font(9)
	p.text(left, top+30, "[집합건물] "+d.Address)
	p.rightText(right, top+30, "고유번호 "+d.UniqueNo)
	p.y = top + 50
	p.titleSection()
	p.entrySection("【  갑      구  】      ( 소유권에 관한 사항 )", d.Ownership)
	if len(d.Rights) > 0 {
		p.entrySection("【  을      구  】      ( 소유권 이외의 권리에 관한 사항 )", d.Rights)
	}
	p.need(lineH * 2)
	p.font(9)
	p.center(p.y+lineH, "-- 이 하 여 백 --")
	p.y += 2 * lineH
	if d.Summary {
		p.summary()
	}
	p.footers()
	b, err := pdf.GetBytesPdfReturnErr()
	if err != nil {
		return nil, fmt.Errorf("evalgen: pdf: %w", err)
	}
	p.printed.PDF = b
	p.printed.Pages = p.page
	return p.printed, nil
}

func (p *printer) font(size float64) {
	if err := p.pdf.SetFont("ub", "", size); err != nil {
		panic(err) // the font was added above
	}
}

func (p *printer) newPage() {
	p.pdf.AddPage()
	p.page++
	p.y = top
	if p.page > 1 {
		p.font(8)
		p.text(left, top-14, "[집합건물] "+p.doc.Address)
	}
}

// need starts a new page when h points do not fit.
func (p *printer) need(h float64) bool {
	if p.y+h <= bottom {
		return false
	}
	p.newPage()
	return true
}

func (p *printer) text(x, y float64, s string) {
	p.pdf.SetXY(x, y)
	_ = p.pdf.Text(s)
}

func (p *printer) width(s string) float64 {
	w, _ := p.pdf.MeasureTextWidth(s)
	return w
}

func (p *printer) center(y float64, s string) { p.text((pageW-p.width(s))/2, y, s) }

func (p *printer) rightText(x, y float64, s string) { p.text(x-p.width(s), y, s) }

// wrap breaks s into lines no wider than w, between characters.
func (p *printer) wrap(s string, w float64) []string {
	var out []string
	line := ""
	for _, r := range s {
		if p.width(line+string(r)) > w && line != "" {
			out = append(out, strings.TrimRight(line, " "))
			line = strings.TrimLeft(string(r), " ")
			continue
		}
		line += string(r)
	}
	if strings.TrimSpace(line) != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// cells wraps each cell's lines to its column.
func (p *printer) cells(cols []float64, cells [][]string) [][]string {
	out := make([][]string, len(cols))
	for i, c := range cells {
		for _, l := range c {
			out[i] = append(out[i], p.wrap(l, cols[i]-2*pad)...)
		}
	}
	return out
}

// rule draws a line across the table at y.
func (p *printer) rule(y float64) {
	p.pdf.SetStrokeColor(0, 0, 0)
	p.pdf.SetLineWidth(0.6)
	p.pdf.Line(left, y, right, y)
}

// verticals draws the columns' rules from y0 to y1.
func (p *printer) verticals(cols []float64, y0, y1 float64) {
	p.pdf.SetStrokeColor(0, 0, 0)
	p.pdf.SetLineWidth(0.4)
	x := left
	p.pdf.Line(x, y0, x, y1)
	for _, w := range cols {
		x += w
		p.pdf.Line(x, y0, x, y1)
	}
}

// headerRow draws a table's column header.
func (p *printer) headerRow(cols []float64, names []string) {
	p.font(fontSize)
	h := lineH + 2*pad
	p.rule(p.y)
	x := left
	for i, w := range cols {
		p.text(x+(w-p.width(names[i]))/2, p.y+pad+fontSize, names[i])
		x += w
	}
	p.verticals(cols, p.y, p.y+h)
	p.y += h
	p.rule(p.y)
}

// row draws a row, going on over page breaks (under the column header
// again), and returns the boxes it took. A struck row gets a red line
// through each of its lines.
func (p *printer) row(cols []float64, cells [][]string, struck bool) []Box {
	wrapped := p.cells(cols, cells)
	n := 0
	for _, c := range wrapped {
		n = max(n, len(c))
	}
	var boxes []Box
	start := p.y
	for k := 0; k < n; k++ {
		if p.y+lineH+pad > bottom {
			boxes = append(boxes, Box{Page: p.page, Top: start, Bottom: p.y})
			p.verticals(cols, start, p.y)
			p.rule(p.y)
			p.newPage()
			p.headerRow(p.cols, p.header)
			start = p.y
		}
		if k == 0 {
			p.y += pad
		}
		p.font(fontSize)
		x := left
		for i, w := range cols {
			if k < len(wrapped[i]) {
				s := wrapped[i][k]
				if i == 0 {
					p.text(x+(w-p.width(s))/2, p.y+fontSize, s)
				} else {
					p.text(x+pad, p.y+fontSize, s)
				}
			}
			x += w
		}
		if struck {
			p.pdf.SetStrokeColor(200, 0, 0)
			p.pdf.SetLineWidth(0.7)
			mid := p.y + fontSize*0.62
			p.pdf.Line(left+2, mid, right-2, mid)
		}
		p.y += lineH
	}
	p.y += pad
	boxes = append(boxes, Box{Page: p.page, Top: start, Bottom: p.y})
	p.verticals(cols, start, p.y)
	p.rule(p.y)
	return boxes
}

// heading draws a section's heading, with room for the header and a line.
func (p *printer) heading(s string) {
	p.need(3*lineH + 2*pad + 16)
	p.font(10)
	p.y += 8
	p.text(left, p.y+10, s)
	p.y += 16
}

func (p *printer) titleSection() {
	d := p.doc
	cols := []float64{42, 70, 150, 150, 103.28}
	p.heading("【  표  제  부  】      ( 1동의 건물의 표시 )")
	p.header, p.cols = []string{"표시번호", "접  수", "소재지번, 건물명칭 및 번호", "건 물 내 역", "등기원인 및 기타사항"}, cols
	p.headerRow(cols, p.header)
	built := d.Ownership[0].Received.AddDate(0, 0, -20)
	p.row(cols, [][]string{{"1"}, {dayText(built)}, {d.Address}, {"철근콘크리트조 평지붕", "15층 공동주택(아파트)"}, {"도면 제2016-33호"}}, false)
	p.heading("【  표  제  부  】      ( 전유부분의 건물의 표시 )")
	p.header = []string{"표시번호", "접  수", "건 물 번 호", "건 물 내 역", "등기원인 및 기타사항"}
	p.headerRow(cols, p.header)
	unit := unitOf(d.Address)
	p.row(cols, [][]string{{"1"}, {dayText(built)}, {unit}, {"철근콘크리트조", "84.93㎡"}, {"도면 제2016-33호"}}, false)
}

// unitOf is the 동 and 호 of an address, as the 전유부분 prints them.
func unitOf(address string) string {
	f := strings.Fields(strings.ReplaceAll(address, ",", " "))
	var out []string
	for _, w := range f {
		if strings.HasSuffix(w, "호") {
			out = append(out, "제"+w)
		}
	}
	return strings.Join(out, " ")
}

func (p *printer) entrySection(heading string, rows []Row) {
	p.heading(heading)
	p.header, p.cols = entryHeader, entryColumns
	p.headerRow(entryColumns, entryHeader)
	for _, r := range rows {
		cells := [][]string{{r.Rank}, {r.Purpose}, {dayText(r.Received), fmt.Sprintf("제%d호", r.ReceiptNo)}, {r.Cause}, r.Details}
		p.printed.Boxes[r.Section+"/"+r.Rank] = p.row(entryColumns, cells, r.Cancelled)
	}
}

// summary draws the 주요 등기사항 요약 (참고용) from a page of its own.
func (p *printer) summary() {
	d := p.doc
	p.newPage()
	p.printed.SummaryFrom = p.page
	p.font(13)
	p.center(p.y+8, "주요 등기사항 요약 (참고용)")
	p.y += 24
	p.font(8)
	for _, s := range []string{
		"[ 주 의 사 항 ]",
		"본 주요 등기사항 요약은 증명서상에 말소되지 않은 사항을 간략히 요약한 것으로 증명서로서의 기능을 제공하지 않습니다.",
		"실제 권리사항 파악을 위해서는 발급된 증명서를 필히 확인하시기 바랍니다.",
	} {
		p.text(left, p.y+8, s)
		p.y += lineH
	}
	p.text(left, p.y+8, "[집합건물] "+d.Address)
	p.rightText(right, p.y+8, "고유번호 "+d.UniqueNo)
	p.y += lineH * 1.5

	p.heading("1. 소유지분현황 ( 갑구 )")
	p.header, p.cols = ownerHeader, ownerColumns
	p.headerRow(ownerColumns, ownerHeader)
	rankOf := map[string]string{}
	for _, r := range d.Ownership {
		if r.Live() {
			for _, h := range r.Holders {
				rankOf[h.Name] = r.Rank
			}
		}
	}
	for _, o := range d.Facts.Owners {
		share := o.Share
		if share == "" {
			share = "단독소유"
		}
		p.row(ownerColumns, [][]string{{o.Name + " (" + o.Role + ")"}, {o.ID}, {share}, {"(주소 생략)"}, {rankOf[o.Name]}}, false)
	}
	omit := ""
	if d.SummaryDisagrees != "" {
		omit = LeftOut(d)
	}
	owner := ""
	if len(d.Facts.Owners) > 0 {
		owner = d.Facts.Owners[0].Name
		if len(d.Facts.Owners) > 1 {
			owner += " 등"
		}
	}
	for _, part := range []struct {
		title string
		rows  []Row
	}{
		{"2. 소유지분을 제외한 소유권에 관한 사항 ( 갑구 )", d.Ownership},
		{"3. (근)저당권 및 전세권 등 ( 을구 )", d.Rights},
	} {
		p.heading(part.title)
		p.header, p.cols = summaryHeader, summaryColumns
		p.headerRow(summaryColumns, summaryHeader)
		n := 0
		for _, r := range part.rows {
			if !r.Live() || r.Kind == KindPreservation || r.Kind == KindTransfer || r.Kind == KindTrust || r.Section+"/"+r.Rank == omit {
				continue
			}
			var main []string
			if r.AmountLabel != "" {
				main = append(main, r.AmountLabel+" "+won(r.Amount))
			}
			for _, h := range r.Holders {
				main = append(main, h.Role+" "+h.Name)
			}
			p.row(summaryColumns, [][]string{{r.Rank}, {r.Purpose}, {dayText(r.Received), fmt.Sprintf("제%d호", r.ReceiptNo)}, main, {owner}}, false)
			n++
		}
		if n == 0 {
			p.row(summaryColumns, [][]string{nil, {"- 기록사항 없음"}, nil, nil, nil}, false)
		}
	}
	p.need(3 * lineH)
	p.font(8)
	p.y += 6
	for _, s := range []string{
		"[ 참 고 사 항 ]",
		"가. 등기기록에서 유효한 지분을 가진 소유자 혹은 공유자 현황을 가나다 순으로 표시합니다.",
		"나. 대상소유자가 명확하지 않은 경우 '확인불가'로 표시될 수 있습니다.",
	} {
		p.text(left, p.y+8, s)
		p.y += lineH
	}
}

// LeftOut is the row (section/rank) a disagreeing summary leaves out: a
// live main entry of 을구, else of 갑구 but ownership; "" when there is
// none.
func LeftOut(d *Document) string {
	for _, list := range [][]Row{d.Rights, d.Ownership} {
		for i := len(list) - 1; i >= 0; i-- {
			r := list[i]
			if r.Live() && !strings.Contains(r.Rank, "-") && r.Kind != KindPreservation && r.Kind != KindTransfer && r.Kind != KindTrust {
				return r.Section + "/" + r.Rank
			}
		}
	}
	return ""
}

// footers prints the 열람일시 and the page number on every page.
func (p *printer) footers() {
	stamp := p.doc.PrintedAt.In(kst).Format("열람일시 : 2006년01월02일 15시04분05초")
	for i := 1; i <= p.page; i++ {
		if err := p.pdf.SetPage(i); err != nil {
			continue
		}
		p.pdf.SetStrokeColor(0, 0, 0)
		p.pdf.SetLineWidth(0.4)
		p.pdf.Line(left, footerY-12, right, footerY-12)
		p.font(7.5)
		p.text(left, footerY, stamp)
		p.rightText(right, footerY, fmt.Sprintf("%d/%d", i, p.page))
	}
}
