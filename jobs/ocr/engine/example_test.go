package engine_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
)

// The built-in engine served over HTTP, read through the client a separate
// engine service (OCR_URL) is read with.
func ExampleServer_Handler() {
	server, err := engine.NewServer(engine.ServerOptions{})
	if err != nil {
		fmt.Println(err) // names the Debian packages to install
		return
	}
	defer server.Close()
	srv := httptest.NewServer(server.Handler())
	defer srv.Close()
	client := ocr.NewHTTPEngine(srv.URL, srv.Client())

	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := issuer.Content("nest-4", "11462010012345", "서울특별시 강남구 테헤란로 152, 103동 1502호")
	doc, err := sim.Render(reg, time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}

	pages, err := client.Parse(context.Background(), doc.PDF, []string{"kor", "eng"})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := ocr.Normalize(ocr.FullText(pages))
	fmt.Println(len(pages), pages[0].Source, pages[0].Confidence)
	fmt.Println(strings.Contains(text, "고유번호 "+reg.FormattedUniqueNo()))

	// Output:
	// 1 text_layer 1
	// true
}
