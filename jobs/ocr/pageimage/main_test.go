package pageimage

import (
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/jobs/issuer"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The documents the tests read, rendered by the registry simulator: the
// engine's tests read the same.
const (
	testUniqueNo = "11462010012345"
	testAddress  = "서울특별시 강남구 테헤란로 152, 103동 1502호"
	nestOnePage  = "nest-4" // 1 page, an owner and one 근저당권
)

// fullCorpus reports whether the tests read every degraded copy of their
// corpora (DUNGJI_TEST_FULL_CORPUS=1), rather than the copies that test
// the preprocessing hardest: each page is seconds of pixel work on shared
// cores.
var fullCorpus = os.Getenv("DUNGJI_TEST_FULL_CORPUS") == "1"

// testDocument is a simulated registry document and its content.
type testDocument struct {
	reg issuer.Registry
	pdf []byte
}

var (
	documentsMu sync.Mutex
	documents   = map[string]testDocument{}
)

// document renders the registry of nestID, with a text layer or as images
// only; renders are cached for the package's tests.
func document(t testing.TB, nestID string, imageOnly bool) testDocument {
	t.Helper()
	key := nestID + map[bool]string{true: "/image", false: "/text"}[imageOnly]
	documentsMu.Lock()
	defer documentsMu.Unlock()
	if d, ok := documents[key]; ok {
		return d
	}
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: imageOnly})
	if err != nil {
		t.Fatal(err)
	}
	reg := issuer.Content(nestID, testUniqueNo, testAddress)
	doc, err := sim.Render(reg, time.Date(2026, 3, 4, 10, 20, 30, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	d := testDocument{reg: reg, pdf: doc.PDF}
	documents[key] = d
	return d
}
