package ocr_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
)

// The built-in engine served over HTTP, read through the client a separate
// engine service (OCR_URL) is read with.
func ExampleNewHTTPEngine() {
	engine, err := ocr.NewServer(ocr.ServerOptions{})
	if err != nil {
		fmt.Println(err) // names the Debian packages to install
		return
	}
	defer engine.Close()
	srv := httptest.NewServer(engine.Handler())
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

// Tesseract and a text layer space the section headings differently;
// normalised, they match.
func ExampleNormalize() {
	fmt.Println(ocr.Normalize("【 갑 구 】 ( 소유권에 관한 사항 )")) // pdftotext
	fmt.Println(ocr.Normalize("【갑 구 】 (소유권에 관한 사항 )"))   // Tesseract
	fmt.Println(ocr.Normalize("채권최고액   금１８３，６００，０００원\n채무자"))

	// Output:
	// 【갑구】 (소유권에 관한 사항)
	// 【갑구】 (소유권에 관한 사항)
	// 채권최고액 금183,600,000원 채무자
}
