package ocrtask_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/analysis"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocrtask"
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
			a := ocrtask.Analyze(tt.pages, now)
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

// TestReanalyzeStale: the registry_reanalysis job stores anew an analysis
// made by an older parser, and one judged against a 고유번호 or address the
// nest no longer has; a current one it leaves alone, and a second run finds
// nothing to do.
func TestReanalyzeStale(t *testing.T) {
	t.Parallel()
	b := setupLazy(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	// A successful OCR task of copyText, its analysis stored as the
	// worker stores it, for a nest of copyText's 고유번호 and address.
	result := func(t *testing.T) (*db.Nest, *db.OCRTask) {
		t.Helper()
		n := &db.Nest{ID: core.NewID(), OwnerID: "alice", Title: "집", Address: "서울특별시 마포구 월드컵북로 396, 104동 102호",
			RegistryUniqueNo: "11012021003412", CreatedAt: now}
		f := &db.File{ID: core.NewID(), NestID: n.ID, Bucket: "b", Key: "k/" + n.ID, Size: 1, SHA256: strings.Repeat("0", 64), ContentType: "application/pdf"}
		// An uploaded copy (no issuance task), printed today.
		printed := copyText + "\n열람일시 : " + now.In(time.FixedZone("KST", 9*3600)).Format("2006년01월02일 15시04분05초")
		pages := []ocr.Page{{Page: 1, Text: printed, Confidence: 1, Source: ocr.SourceTextLayer}}
		raw, err := json.Marshal(ocrtask.OCRResult{EngineJobID: core.NewID(), Pages: pages})
		if err != nil {
			t.Fatal(err)
		}
		tk := &db.OCRTask{ID: core.NewID(), NestID: n.ID, FileID: f.ID, RequestedBy: "alice", Result: raw,
			Lifecycle: db.Lifecycle{Status: db.StatusSuccess, MaxAttempts: 1, Version: 3, CreatedAt: now, UpdatedAt: now, FinishedAt: &now}}
		err = b.DB.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			for _, m := range []any{n, f, tk} {
				if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
					return err
				}
			}
			return ocrtask.UpsertAnalysis(ctx, tx, tk, n, pages, ocrtask.Analyze(pages, now), now)
		})
		if err != nil {
			t.Fatal(err)
		}
		return n, tk
	}
	stored := func(t *testing.T, id string) *db.RegistryAnalysis {
		t.Helper()
		ra := new(db.RegistryAnalysis)
		if err := b.DB.Bun.NewSelect().Model(ra).Where("ocr_task_id = ?", id).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		return ra
	}
	_, current := result(t)
	_, old := result(t)
	if _, err := b.DB.Bun.NewUpdate().Model((*db.RegistryAnalysis)(nil)).Set("parser_version = ?", analysis.ParserVersion-1).
		Set("verdict = 'PARTIAL'").Where("ocr_task_id = ?", old.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	moved, movedTask := result(t)
	if _, err := b.DB.Bun.NewUpdate().Model(moved).Set("address = ?", "서울특별시 마포구 월드컵북로 400").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	before := stored(t, current.ID)
	if before.Verdict != string(analysis.VerdictCopyComplete) {
		t.Fatalf("the current analysis says %s %s", before.Verdict, before.Reasons)
	}

	n, err := b.Svc.ReanalyzeStale(ctx)
	if err != nil || n != 2 {
		t.Fatalf("reanalyzeStale: %d, %v; want the 2 stale ones", n, err)
	}
	if got := stored(t, old.ID); got.ParserVersion != analysis.ParserVersion || got.Verdict != string(analysis.VerdictCopyComplete) {
		t.Errorf("the older parser's analysis: version %d, verdict %s", got.ParserVersion, got.Verdict)
	}
	got := stored(t, movedTask.ID)
	if got.JudgedAddress != "서울특별시 마포구 월드컵북로 400" || got.Verdict == string(analysis.VerdictCopyComplete) {
		t.Errorf("the moved nest's analysis: judged against %q, verdict %s", got.JudgedAddress, got.Verdict)
	}
	if after := stored(t, current.ID); !after.JudgedAt.Equal(before.JudgedAt) || after.Verdict != before.Verdict {
		t.Errorf("the current analysis was stored again: judged at %v, was %v", after.JudgedAt, before.JudgedAt)
	}
	if n, err := b.Svc.ReanalyzeStale(ctx); err != nil || n != 0 {
		t.Errorf("a second run: %d, %v; want nothing to do", n, err)
	}
}
