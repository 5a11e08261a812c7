package jobs

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/analysis"
	"github.com/dungji/dungji/jobs/ocr"
)

// copyText is a short registry as a text layer reads it.
const copyText = `등기사항전부증명서(말소사항 포함) - 집합건물
[집합건물] 서울특별시 마포구 월드컵북로 396, 104동 102호       고유번호 1101-2021-003412
【 표 제 부 】 ( 전유부분의 건물의 표시 )
 표시번호        접수            건물번호                          건물내역
   1     2010년3월4일    제1층 제102호                  철근콘크리트구조 84.97㎡
【 갑 구 】 ( 소유권에 관한 사항 )
 순위번호        등기목적              접수             등기원인             권리자 및 기타사항
   1     소유권보존            2010년3월24일                      소유자 김민준 750101-*******
                          제1234호
【 을 구 】 ( 소유권 이외의 권리에 관한 사항 )
 순위번호        등기목적              접수             등기원인             권리자 및 기타사항
   1     근저당권설정           2019년5월2일     2019년5월2일        채권최고액 금360,000,000원
                          제2346호        설정계약             근저당권자 주식회사 국민은행 110111-2365321
                                            -- 이 하 여 백 --`

// TestAnalyzeChecksTextLayer: a page read with its image (an uploaded
// copy's) is analysed from its text layer and checked against the image.
func TestAnalyzeChecksTextLayer(t *testing.T) {
	t.Parallel()
	page := func(text string, image *ocr.Page) []ocr.Page {
		return []ocr.Page{{Page: 1, Text: text, Confidence: 1, Source: ocr.SourceTextLayer, Image: image}}
	}
	image := func(text string) *ocr.Page {
		return &ocr.Page{Page: 1, Text: text, Confidence: 0.95, Source: ocr.SourceOCR}
	}
	now := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		pages []ocr.Page
		code  string
	}{
		{"issued: no image read", page(copyText, nil), ""},
		{"uploaded, the image agrees", page(copyText, image(copyText)), ""},
		{"uploaded, the text layer forged", page(strings.Replace(copyText, "금360,000,000원", "금36,000,000원", 1), image(copyText)), analysis.ReasonTextLayerMismatch},
		{"uploaded, the image unreadable", page(copyText, image("@@@ ### !!!")), analysis.ReasonTextLayerUnchecked},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := analyze(tt.pages, now)
			if a.Registry == nil {
				t.Fatalf("no registry: %s", a.Error)
			}
			has := slices.ContainsFunc(a.Registry.Conflicts, func(c analysis.Conflict) bool { return c.Code == tt.code })
			if tt.code == "" && len(a.Registry.Conflicts) > 0 || tt.code != "" && !has {
				t.Errorf("conflicts %+v, want %q", a.Registry.Conflicts, tt.code)
			}
		})
	}
}
