package ocr_test

import (
	"fmt"

	"github.com/dungji/dungji/jobs/ocr"
)

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
