package pageimage

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/internal/ocrtest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The documents the tests read, rendered by the registry simulator: the
// engine's tests read the same.
const (
	testUniqueNo = ocrtest.UniqueNo
	testAddress  = ocrtest.Address
	nestOnePage  = ocrtest.NestOnePage
)

// fullCorpus is ocrtest.FullCorpus.
var fullCorpus = ocrtest.FullCorpus

// testDocument is a simulated registry document and its content.
type testDocument struct {
	reg issuer.Registry
	pdf []byte
}

// document renders the registry of nestID (ocrtest.Render: cached).
func document(t testing.TB, nestID string, imageOnly bool) testDocument {
	t.Helper()
	d := ocrtest.Render(t, nestID, imageOnly)
	return testDocument{reg: d.Reg, pdf: d.PDF}
}
