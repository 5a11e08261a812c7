package pageimage

import (
	"context"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/degrade"
	"github.com/dungji/dungji/jobs/ocr/internal/ocrtest"
)

// serifFont is a face the simulator does not print in (its own is
// NanumGothic), from the same Debian package.
const serifFont = "/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf"

// TestDespeckleCleanSerifPage: a clean page loses no ink to despeckling,
// in a serif face too. NanumMyeongjo's dash is 16 pixels long at 300 dpi,
// longer than the half character a small blob may be, so the asterisks of
// each masked 주민등록번호 after it were not chained to it: the page's
// masks came to more than minSpecks "specks", and every asterisk went
// (소유자 류미경 480620-******* read "류미경480620").
func TestDespeckleCleanSerifPage(t *testing.T) {
	t.Parallel()
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true, FontPath: serifFont})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := sim.Render(issuer.Content("nest-0005", ocrtest.UniqueNo, ocrtest.Address), time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := degrade.PageImages(context.Background(), doc.PDF, 300)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pages {
		g := levelLight(p)
		if removed, _, _ := despeckleGrey(g, binarise(g, otsu(g)), minSpecks); len(removed) > 0 {
			t.Errorf("page %d: %d ink pixels taken for specks on a clean page", i+1, len(removed))
		}
	}
}
