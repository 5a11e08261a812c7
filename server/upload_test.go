package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr/degrade"
	"github.com/dungji/dungji/server/httpapi"
	"github.com/dungji/dungji/server/internal/testkit"
)

// uploadForm is a multipart/form-data body with one file field.
func uploadForm(t *testing.T, field, name string, content []byte, extra [][2]string) (string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, kv := range extra {
		if err := w.WriteField(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if field != "" {
		fw, err := w.CreateFormFile(field, name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	w.Close()
	return w.FormDataContentType(), &buf
}

// restUpload posts a file to the REST upload path.
func restUpload(t *testing.T, a *testApp, tok, nest string, content []byte) (int, map[string]any) {
	t.Helper()
	ct, body := uploadForm(t, "file", "registry.pdf", content, nil)
	req, _ := http.NewRequest(http.MethodPost, a.base+"/nests/"+nest+"/analysis/registry/upload", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, b := a.do(t, req)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	return resp.StatusCode, out
}

// gqlUpload sends uploadRegistry per the GraphQL multipart request spec.
func gqlUpload(t *testing.T, a *testApp, tok, nest string, content []byte) gqlResponse {
	t.Helper()
	ops := `{"query":"mutation($nest: ID!, $file: Upload!) { uploadRegistry(nestId: $nest, file: $file) { file { id size } ocrTask { id status } } }","variables":{"nest":"` + nest + `","file":null}}`
	ct, body := uploadForm(t, "0", "scan.png", content, [][2]string{{"operations", ops}, {"map", `{"0":["variables.file"]}`}})
	req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, b := a.do(t, req)
	var out gqlResponse
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	out.Status = resp.StatusCode
	return out
}

// rawPost writes a POST over a socket of its own, declaring length bytes
// of body whatever it sends, then, when hangUp, half-closes the connection
// (a client whose connection dropped), and returns the status answered
// (0: none) and the body.
func rawPost(t *testing.T, a *testApp, path, tok, contentType string, body []byte, length int, hangUp bool) (int, string) {
	t.Helper()
	conn := rawHeaders(t, a, path, tok, contentType, length, 30*time.Second)
	defer conn.Close()
	conn.Write(body)
	if hangUp {
		conn.(*net.TCPConn).CloseWrite()
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, ""
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		t.Logf("%s: %d %s", path, resp.StatusCode, b)
	}
	return resp.StatusCode, string(b)
}

// rawHeaders opens a socket of its own and writes a POST's headers,
// declaring length bytes of body; the connection gives up after limit.
func rawHeaders(t *testing.T, a *testApp, path, tok, contentType string, length int, limit time.Duration) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(a.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(limit))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: dungji\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		path, tok, contentType, length)
	return conn
}

// pagePNG is a PNG page of 400 × 300 pixels of gray shade, its first
// pixel mark: pages of other marks are other copies.
func pagePNG(shade, mark uint8) []byte {
	img := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range img.Pix {
		img.Pix[i] = shade
	}
	img.Pix[0] = mark
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// nestLeftovers counts the nest's files rows, OCR tasks and stored objects.
func nestLeftovers(t *testing.T, a *testApp, nest string) string {
	t.Helper()
	ctx := context.Background()
	var files, tasks int
	if err := a.db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM files WHERE nest_id = $1), (SELECT count(*) FROM ocr_tasks WHERE nest_id = $1)`,
		nest).Scan(&files, &tasks); err != nil {
		t.Fatal(err)
	}
	keys, err := a.store.List(ctx, "nests/"+nest+"/")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d files, %d OCR tasks, %d objects", files, tasks, len(keys))
}

// TestUploadRegistryRefusals: every bad upload, by REST and by GraphQL,
// gets BAD_USER_INPUT with a message saying what is wrong, and leaves no
// row and no object.
func TestUploadRegistryRefusals(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "올린 등기부")

	// A PNG that declares 60,000 × 60,000 pixels in a file of a few hundred
	// bytes: decoded, it would take 3.6 GB.
	var bomb bytes.Buffer
	png.Encode(&bomb, image.NewGray(image.Rect(0, 0, 1, 1)))
	b := bomb.Bytes()
	copy(b[16:24], []byte{0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60}) // IHDR width, height
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	// An encrypted PDF: a user password is needed to open it.
	encrypted := []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n" +
		"3 0 obj<</Filter/Standard/V 1/R 2/O(01234567890123456789012345678901)/U(01234567890123456789012345678901)/P -4>>endobj\n" +
		"trailer<</Root 1 0 R/Encrypt 3 0 R/ID[<00112233445566778899aabbccddeeff><00112233445566778899aabbccddeeff>]>>\n%%EOF\n")
	zeroPages := []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n" +
		"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \ntrailer<</Size 3/Root 1 0 R>>\nstartxref\n101\n%%EOF\n")
	// A sliver of 1 × 40,000,000 pixels, within the pixel bound: reading it
	// took minutes and gigabytes before it failed as an internal error.
	var sliver bytes.Buffer
	png.Encode(&sliver, image.NewGray(image.Rect(0, 0, 1, 1)))
	sl := sliver.Bytes()
	copy(sl[16:24], []byte{0, 0, 0, 1, 0x02, 0x62, 0x5a, 0x00}) // 1 × 40,000,000
	binary.BigEndian.PutUint32(sl[29:33], crc32.ChecksumIEEE(sl[12:29]))
	// A 16-bit RGBA PNG of 7071 × 7071 pixels, under the pixel bound:
	// 393 KiB as sent, 762 MB once decoded, when it was decoded.
	var deep bytes.Buffer
	png.Encode(&deep, image.NewNRGBA64(image.Rect(0, 0, 1, 1)))
	dp := deep.Bytes()
	copy(dp[16:24], []byte{0, 0, 0x1b, 0x9f, 0, 0, 0x1b, 0x9f}) // 7071 × 7071
	binary.BigEndian.PutUint32(dp[29:33], crc32.ChecksumIEEE(dp[12:29]))
	truncatedPNG := func() []byte {
		var buf bytes.Buffer
		img := image.NewGray(image.Rect(0, 0, 200, 200))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 7)
		}
		png.Encode(&buf, img)
		return buf.Bytes()[:buf.Len()/2]
	}()

	tests := []struct {
		name    string
		content []byte
		message string
	}{
		{"empty", nil, "empty"},
		{"text", []byte("hello, this is not a registry"), "not a PDF, PNG or JPEG"},
		{"a GIF", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "not a PDF, PNG or JPEG"},
		{"too large", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("0"), 20<<20)...), "larger than 20 MiB"},
		{"a decompression bomb", b, "megapixels"},
		{"a sliver", sl, "at least 200 pixels each way"},
		{"a 16-bit RGBA image of 50 megapixels", dp, "381 MiB once decoded, and at most 128 MiB a page"},
		{"a damaged image", truncatedPNG, "image cannot be read"},
		{"a damaged PDF", []byte("%PDF-1.4\nthis is not really a PDF\n"), "PDF cannot be read: not a readable PDF: it is damaged or truncated"},
		{"an encrypted PDF", encrypted, "PDF cannot be read"},
		{"a PDF with no pages", zeroPages, "PDF cannot be read: the PDF has no pages"},
		// An outside tester's: pages no registry is printed on were stored,
		// then failed OCR.
		{"a PDF page of 1 × 1 pt", degrade.EmptyPagePDF("0 0 1 1", ""), "no registry page is that size"},
		{"a PDF page of 595 × 1e9 pt", degrade.EmptyPagePDF("0 0 595 1000000000", ""), "no registry page is that size"},
	}
	for _, tt := range tests {
		t.Run("REST "+tt.name, func(t *testing.T) {
			status, body := restUpload(t, a, tok, nest, tt.content)
			msg, _ := body["message"].(string)
			if status != http.StatusBadRequest || body["error_code"] != "BAD_USER_INPUT" || !strings.Contains(msg, tt.message) {
				t.Errorf("%d %v, want 400 BAD_USER_INPUT saying %q", status, body, tt.message)
			}
		})
		t.Run("GraphQL "+tt.name, func(t *testing.T) {
			r := gqlUpload(t, a, tok, nest, tt.content)
			if r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, tt.message) {
				t.Errorf("%d %+v, want BAD_USER_INPUT saying %q", r.Status, r.Errors, tt.message)
			}
		})
	}
	if got := nestLeftovers(t, a, nest); got != "0 files, 0 OCR tasks, 0 objects" {
		t.Errorf("after the refusals: %s", got)
	}
	// A JSON request can send no file: a string, a number or an object in
	// the Upload's place is bad input (it was INTERNAL once).
	for _, v := range []any{"abc", 123, map[string]any{}, []any{}, true} {
		r := a.gql(t, tok, `mutation($nest: ID!, $file: Upload!) { uploadRegistry(nestId: $nest, file: $file) { file { id } } }`,
			map[string]any{"nest": nest, "file": v})
		if r.code() != "BAD_USER_INPUT" || r.Errors[0].Extensions["field"] != "file" || !strings.Contains(r.Errors[0].Message, "multipart") {
			t.Errorf("file %v in a JSON request: %+v", v, r.Errors)
		}
	}
	// Two "file" fields: refused, whichever is good.
	var two bytes.Buffer
	mw := multipart.NewWriter(&two)
	for range 2 {
		fw, _ := mw.CreateFormFile("file", "registry.pdf")
		fw.Write([]byte("%PDF-1.4\n"))
	}
	mw.Close()
	req2, _ := http.NewRequest(http.MethodPost, a.base+"/nests/"+nest+"/analysis/registry/upload", &two)
	req2.Header.Set("Content-Type", mw.FormDataContentType())
	req2.Header.Set("Authorization", "Bearer "+tok)
	if resp, b := a.do(t, req2); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "two") {
		t.Errorf("two file fields: %d %s", resp.StatusCode, b)
	}
	// A post cut off after its file: the connection closes before the
	// declared length or the closing boundary arrives. Nothing is stored
	// (the client never learns of an upload and sends it again).
	good := pagePNG(255, 255)
	ctGood, bodyGood := uploadForm(t, "file", "registry.png", good, nil)
	full := bodyGood.Bytes()
	for _, cut := range []struct {
		name   string
		body   []byte
		length int
	}{
		{"declared longer than sent", full, len(full) + 1000},
		{"no closing boundary", full[:len(full)-len("--\r\n")-70], len(full) - len("--\r\n") - 70},
	} {
		status, _ := rawPost(t, a, "/nests/"+nest+"/analysis/registry/upload", tok, ctGood, cut.body, cut.length, true)
		if status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", cut.name, status)
		}
	}
	// The same post whole is stored (on a nest of its own), and answered
	// though the client half-closes its socket once it has sent it (Go's
	// server takes that as a client gone and cancels its request: it
	// answered 500 then).
	other := createNest(t, a, tok, "온전한 업로드")
	if status, body := rawPost(t, a, "/nests/"+other+"/analysis/registry/upload", tok, ctGood, full, len(full), true); status != http.StatusAccepted {
		t.Errorf("the whole post, half-closed: %d %s, want 202", status, body)
	}
	// So is a GraphQL mutation: the nest is created and the answer says so
	// (it was created and answered INTERNAL, and a retry made another).
	create := mustJSON(t, map[string]any{"query": createNestMutation, "variables": map[string]any{"in": map[string]any{
		"title": "반쯤 닫힌 소켓", "address": "서울특별시 마포구 월드컵북로 400", "registryUniqueNo": "11010000099999"}}})
	if status, body := rawPost(t, a, "/graphql", tok, "application/json", []byte(create), len(create), true); status != http.StatusOK || !strings.Contains(body, `"createNest":{"id"`) {
		t.Errorf("createNest, half-closed: %d %s, want 200 with the nest", status, body)
	}
	var created int
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM nests WHERE title = '반쯤 닫힌 소켓'`).Scan(&created); err != nil || created != 1 {
		t.Errorf("createNest, half-closed: %d nests made (%v), want 1", created, err)
	}
	// Not the caller's nest: FORBIDDEN, nothing stored either.
	if status, body := restUpload(t, a, a.token(t, "bob", false), nest, []byte("%PDF-1.4")); status != http.StatusForbidden {
		t.Errorf("bob: %d %v", status, body)
	}
	// No file field at all.
	ct, body := uploadForm(t, "", "", nil, [][2]string{{"note", "x"}})
	req, _ := http.NewRequest(http.MethodPost, a.base+"/nests/"+nest+"/analysis/registry/upload", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, b := a.do(t, req); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `no \"file\" field`) {
		t.Errorf("no file field: %d %s", resp.StatusCode, b)
	}
	if got := nestLeftovers(t, a, nest); got != "0 files, 0 OCR tasks, 0 objects" {
		t.Errorf("at the end: %s", got)
	}
}

// TestUploadRegistryAnalysed: a registry PDF posted over REST and a photo
// of one page sent over GraphQL are stored under the nest, read by OCR and
// analysed with a verdict, like an issued document.
func TestUploadRegistryAnalysed(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "가진 등기부")
	var uniqueNo, address string
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT registry_unique_no, address FROM nests WHERE id = $1`, nest).Scan(&uniqueNo, &address); err != nil {
		t.Fatal(err)
	}
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A registry of one page, the nest's 고유번호 and address printed on it:
	// an uploaded copy is read from its text layer and its image both.
	seed, _, ok := issuer.FindNest(uniqueNo, address, func(r issuer.Registry) bool { return r.Pages == 1 })
	if !ok {
		t.Fatal("no one-page registry")
	}
	reg := issuer.Content(seed, uniqueNo, address)
	doc, err := sim.Render(reg, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	status, body := restUpload(t, a, tok, nest, doc.PDF)
	if status != http.StatusAccepted || body["ocr_task_id"] == nil || body["file_id"] == nil {
		t.Fatalf("REST upload: %d %v", status, body)
	}
	task := body["ocr_task_id"].(string)
	q := `query($id: ID!) { ocrTask(id: $id) { status pageCount file { key: url size } analysis { verdict reasons { code } registry { title { uniqueNo } } } } }`
	var an any
	testkit.Eventually(t, 3*time.Minute, "the upload's OCR finishes", func() bool {
		r := a.gql(t, tok, q, map[string]any{"id": task})
		an = dig(r.Data, "ocrTask", "analysis")
		s := dig(r.Data, "ocrTask", "status")
		return s == "SUCCESS" || s == "FAILED"
	})
	// An uploaded copy read in full is COPY_COMPLETE, never COMPLETE: it
	// is what the user gave us, not what the office issued to us.
	if dig(an, "verdict") != "COPY_COMPLETE" || dig(an, "registry", "title", "uniqueNo") != reg.FormattedUniqueNo() {
		t.Errorf("uploaded PDF: %v", an)
	}
	keys, err := a.store.List(context.Background(), "nests/"+nest+"/uploads/")
	if err != nil || len(keys) != 1 {
		t.Errorf("objects under the nest's uploads: %v %v", keys, err)
	}
	fresh := task

	// A copy printed 40 days ago, uploaded after it: PARTIAL (OLD_COPY),
	// and the nest's analysis stays the fresh copy's.
	oldDoc, err := sim.Render(reg, time.Now().AddDate(0, 0, -40))
	if err != nil {
		t.Fatal(err)
	}
	status, body = restUpload(t, a, tok, nest, oldDoc.PDF)
	if status != http.StatusAccepted {
		t.Fatalf("REST upload of the old copy: %d %v", status, body)
	}
	task = body["ocr_task_id"].(string)
	qAge := `query($id: ID!, $nest: ID!) { ocrTask(id: $id) { status analysis { verdict reasons { code message } registry { printedAt } } }
		nest(id: $nest) { registryAnalysis { ocrTask { id } verdict registry { printedAt } } } }`
	var aged map[string]any
	testkit.Eventually(t, 3*time.Minute, "the old copy's OCR finishes", func() bool {
		aged = a.gql(t, tok, qAge, map[string]any{"id": task, "nest": nest}).Data
		s := dig(aged, "ocrTask", "status")
		return s == "SUCCESS" || s == "FAILED"
	})
	an = dig(aged, "ocrTask", "analysis")
	printed, _ := time.Parse(time.RFC3339, fmt.Sprint(dig(an, "registry", "printedAt")))
	if dig(an, "verdict") != "PARTIAL" || !strings.Contains(fmt.Sprint(dig(an, "reasons")), "OLD_COPY") ||
		printed.Sub(time.Now().AddDate(0, 0, -40)).Abs() > time.Minute {
		t.Errorf("a copy printed 40 days ago: %v", an)
	}
	if dig(aged, "nest", "registryAnalysis", "ocrTask", "id") != fresh || dig(aged, "nest", "registryAnalysis", "verdict") != "COPY_COMPLETE" {
		t.Errorf("the old copy took the fresh copy's place as the nest's analysis: %v", dig(aged, "nest"))
	}
	// A copy whose 열람일시 reads as a day to come (a misreading): its date
	// is not known, so not shown, and it does not take the fresh copy's
	// place either (it did, by the time it was read).
	futureDoc, err := sim.Render(reg, time.Now().AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if status, body = restUpload(t, a, tok, nest, futureDoc.PDF); status != http.StatusAccepted {
		t.Fatalf("REST upload of the future copy: %d %v", status, body)
	}
	task = body["ocr_task_id"].(string)
	testkit.Eventually(t, 3*time.Minute, "the future copy's OCR finishes", func() bool {
		aged = a.gql(t, tok, qAge, map[string]any{"id": task, "nest": nest}).Data
		s := dig(aged, "ocrTask", "status")
		return s == "SUCCESS" || s == "FAILED"
	})
	an = dig(aged, "ocrTask", "analysis")
	if dig(an, "verdict") != "PARTIAL" || !strings.Contains(fmt.Sprint(dig(an, "reasons")), "COPY_UNDATED") || dig(an, "registry", "printedAt") != nil {
		t.Errorf("a copy dated a year ahead: %v", an)
	}
	if dig(aged, "nest", "registryAnalysis", "ocrTask", "id") != fresh {
		t.Errorf("the future-dated copy took the fresh copy's place as the nest's analysis: %v", dig(aged, "nest"))
	}

	// A photo of the first page, over GraphQL: a 1-page copy of a longer
	// document, so at best PARTIAL, never COMPLETE.
	imgSim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	imgDoc, err := imgSim.Render(reg, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	pages, err := degrade.PageImages(context.Background(), imgDoc.PDF, 200)
	if err != nil {
		t.Fatal(err)
	}
	var photo bytes.Buffer
	png.Encode(&photo, pages[0])
	r := gqlUpload(t, a, tok, nest, photo.Bytes())
	if len(r.Errors) > 0 || dig(r.Data, "uploadRegistry", "ocrTask", "status") != "PENDING" {
		t.Fatalf("GraphQL upload: %d %+v %v", r.Status, r.Errors, r.Data)
	}
	task = dig(r.Data, "uploadRegistry", "ocrTask", "id").(string)
	var photoOCR map[string]any
	testkit.Eventually(t, 90*time.Second, "the photo's OCR finishes", func() bool {
		photoOCR = a.gql(t, tok, q, map[string]any{"id": task}).Data
		s := dig(photoOCR, "ocrTask", "status")
		return s == "SUCCESS" || s == "FAILED"
	})
	an = dig(photoOCR, "ocrTask", "analysis")
	if dig(photoOCR, "ocrTask", "status") != "SUCCESS" || dig(photoOCR, "ocrTask", "pageCount") != float64(1) {
		t.Errorf("photo OCR: %v", photoOCR)
	}
	if v := dig(an, "verdict"); v == "COMPLETE" || (v == "COPY_COMPLETE" && reg.Pages > 1) {
		t.Errorf("one page of %d judged COMPLETE: %v", reg.Pages, an)
	}
	t.Logf("photo of page 1 of %d: %v", reg.Pages, an)
}

// TestUploadRateLimited: an upload starts OCR work and takes a token of
// the caller's bucket, as requestOcr does (44 uploads in ten seconds were
// all accepted once); beyond it, RATE_LIMITED with a retry hint by REST
// and GraphQL, and nothing stored.
// TestUploadOfDensePagesIsRefused: a hundred pages of 5-point digits (a
// PDF of a few megabytes) held an OCR worker 51 minutes, and other users'
// tasks timed out behind it; with the digits' spacing cut until they
// touch, an outside tester's upload passed the count of marks and took a
// minute and a half a page. The first page's ink is measured before
// Tesseract reads it: the upload fails UNREADABLE in seconds, saying why.
func TestUploadOfDensePagesIsRefused(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	tok := a.token(t, "mallory", false)
	nest := createNest(t, a, tok, "빽빽한 쪽")
	pdf := degrade.DenseDigitsPDF(100, true)
	status, body := restUpload(t, a, tok, nest, pdf)
	if status != http.StatusAccepted {
		t.Fatalf("upload of %d bytes: %d %v", len(pdf), status, body)
	}
	start := time.Now()
	var task any
	testkit.Eventually(t, 2*time.Minute, "the upload's OCR ends", func() bool {
		task = dig(a.gql(t, tok, `query($id: ID!) { ocrTask(id: $id) { status errorCode errorMessage } }`, map[string]any{"id": body["ocr_task_id"]}).Data, "ocrTask")
		s := dig(task, "status")
		return s == "SUCCESS" || s == "FAILED"
	})
	msg, _ := dig(task, "errorMessage").(string)
	if dig(task, "status") != "FAILED" || dig(task, "errorCode") != "UNREADABLE" || !strings.Contains(msg, "too dense to be a registry page") {
		t.Fatalf("task %v, want FAILED UNREADABLE, too dense", task)
	}
	t.Logf("%d bytes, refused after %s: %s", len(pdf), time.Since(start).Round(time.Second), msg)
}

func TestUploadRateLimited(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s", "RATE_LIMIT": "2/h,burst=2"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "여러 번 올린 등기부")
	// page n is a copy of its own: the same copy again is reused, not
	// stored (TestUploadTwiceIsOne).
	page := func(n int) []byte { return pagePNG(255, uint8(n)) }
	for i := range 2 {
		if status, body := restUpload(t, a, tok, nest, page(i)); status != http.StatusAccepted {
			t.Fatalf("upload %d: %d %v", i+1, status, body)
		}
	}
	ct, body := uploadForm(t, "file", "registry.png", page(2), nil)
	req, _ := http.NewRequest(http.MethodPost, a.base+"/nests/"+nest+"/analysis/registry/upload", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, b := a.do(t, req)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), "RATE_LIMITED") {
		t.Errorf("third upload by REST: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if r := gqlUpload(t, a, tok, nest, page(3)); r.code() != "RATE_LIMITED" || r.Errors[0].Extensions["retryAfter"] == nil {
		t.Errorf("third upload by GraphQL: %+v", r.Errors)
	}
	if got := nestLeftovers(t, a, nest); got != "2 files, 2 OCR tasks, 2 objects" {
		t.Errorf("after the refusals: %s", got)
	}
	// Another user's bucket is their own.
	bob := a.token(t, "bob", false)
	if status, body := restUpload(t, a, bob, createNest(t, a, bob, "밥의 집"), page(0)); status != http.StatusAccepted {
		t.Errorf("bob: %d %v", status, body)
	}
}

// TestUploadMultipartSpec: a multipart GraphQL request that does not follow
// the GraphQL multipart request spec is 400 BAD_REQUEST saying what is
// wrong (gqlgen answered these without a code, "invalid empty operations
// paths list for key 0" for a file sent twice, "cannot use struct as ID"
// for a file mapped onto the nest's ID), and stores nothing.
func TestUploadMultipartSpec(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "규칙을 어긴 업로드")
	ops := `{"query":"mutation($nest: ID!, $file: Upload!) { uploadRegistry(nestId: $nest, file: $file) { file { id } } }","variables":{"nest":"` + nest + `","file":null}}`
	file := []byte("%PDF-1.4\n")
	type part struct{ name, content string }
	op, good := part{"operations", ops}, part{"map", `{"0":["variables.file"]}`}
	f0 := part{"0", string(file)}
	for _, tt := range []struct {
		name  string
		parts []part
		want  string
	}{
		{"a file mapped onto the nest's ID", []part{op, {"map", `{"0":["variables.nest"]}`}, f0}, "must be null in operations"},
		{"a file sent twice", []part{op, good, f0, f0}, "sent twice"},
		{"a deep path", []part{op, {"map", `{"0":["variables.file.a.b"]}`}, f0}, "is not variables.<name>"},
		{"a path outside variables", []part{op, {"map", `{"0":["query"]}`}, f0}, "is not variables.<name>"},
		{"a map that is not JSON", []part{op, {"map", `{0: variables.file`}, f0}, "map must be a JSON object"},
		{"map before operations", []part{good, op, f0}, `the first field must be \"operations\"`},
		{"a mapped file not sent", []part{op, good}, "which is not sent"},
		// An outside tester's: one path given twice was accepted.
		{"a path mapped twice", []part{op, {"map", `{"0":["variables.file","variables.file"]}`}, f0}, "is mapped twice"},
		{"a path mapped to two files", []part{op, {"map", `{"0":["variables.file"],"1":["variables.file"]}`}, f0, {"1", "x"}}, "is mapped twice"},
		{"a file not in map", []part{op, good, f0, {"1", "x"}}, "is not in map"},
		{"an empty path list", []part{op, {"map", `{"0":[]}`}, f0}, "has no path"},
		{"operations that are not a request", []part{{"operations", `[1,2]`}, good, f0}, "operations:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			for _, p := range tt.parts {
				var fw io.Writer
				if p.name == "operations" || p.name == "map" {
					fw, _ = mw.CreateFormField(p.name)
				} else {
					fw, _ = mw.CreateFormFile(p.name, "registry.pdf")
				}
				io.WriteString(fw, p.content)
			}
			mw.Close()
			req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", &buf)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, b := a.do(t, req)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"code":"BAD_REQUEST"`) || !strings.Contains(string(b), tt.want) {
				t.Errorf("%d %s, want 400 BAD_REQUEST saying %q", resp.StatusCode, b, tt.want)
			}
		})
	}
	// A form whose file runs to the body's end with no closing boundary:
	// cut off (gqlgen answered 200 "failed to read file for key 0").
	var cut bytes.Buffer
	mw := multipart.NewWriter(&cut)
	fw, _ := mw.CreateFormField("operations")
	io.WriteString(fw, ops)
	fw, _ = mw.CreateFormField("map")
	io.WriteString(fw, `{"0":["variables.file"]}`)
	fw, _ = mw.CreateFormFile("0", "registry.pdf")
	fw.Write(file)
	req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", &cut)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, b := a.do(t, req); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "ends early") {
		t.Errorf("no closing boundary: %d %s, want 400 saying the form ends early", resp.StatusCode, b)
	}
	if got := nestLeftovers(t, a, nest); got != "0 files, 0 OCR tasks, 0 objects" {
		t.Errorf("after the refusals: %s", got)
	}
}

// TestUploadSlowLink: an upload that takes several times
// REQUEST_BODY_TIMEOUT and REQUEST_TIMEOUT (1 s and 5 s here) to arrive, at
// twice MinBodyRate, is taken, by REST and GraphQL: the body's bound grows
// with what arrives, and the work's is counted from its last byte. A
// tenant on a weak uplink was refused with 408 once the whole post took
// over 20 s.
func TestUploadSlowLink(t *testing.T) {
	t.Parallel()
	// REQUEST_TIMEOUT is 5 s, not 1: the work after the last byte (the
	// photo drawn into a PDF, stored, its task queued) took over 1 s, and
	// once over 3 s, under -race on shared cores in make test.
	a := startApp(t, map[string]string{"REQUEST_BODY_TIMEOUT": "1s", "REQUEST_TIMEOUT": "5s"})
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "느린 회선")
	// A blank page of 300 × 300 pixels with a 1 MiB comment: a valid
	// image whose bytes take about 16 s at 64 KiB/s.
	var img bytes.Buffer
	blank := image.NewGray(image.Rect(0, 0, 300, 300))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	photo := func(fill string) []byte { // two photos, not one sent twice (that is reused)
		blank.Pix[0] = fill[0] // the comment is not kept: the pixels differ
		img.Reset()
		png.Encode(&img, blank)
		comment := append([]byte("Comment\x00"), bytes.Repeat([]byte(fill), 1<<20)...)
		chunk := binary.BigEndian.AppendUint32(nil, uint32(len(comment)))
		chunk = append(chunk, "tEXt"...)
		chunk = append(chunk, comment...)
		chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
		p := append(append(append([]byte{}, img.Bytes()[:33]...), chunk...), img.Bytes()[33:]...) // after IHDR
		if _, err := png.Decode(bytes.NewReader(p)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ops := `{"query":"mutation($nest: ID!, $file: Upload!) { uploadRegistry(nestId: $nest, file: $file) { ocrTask { id } } }","variables":{"nest":"` + nest + `","file":null}}`
	restCT, restBody := uploadForm(t, "file", "photo.png", photo("x"), nil)
	gqlCT, gqlBody := uploadForm(t, "0", "photo.png", photo("y"), [][2]string{{"operations", ops}, {"map", `{"0":["variables.file"]}`}})
	for _, tc := range []struct {
		name, path, contentType string
		body                    []byte
		accepted                string
	}{
		{"REST", "/nests/" + nest + "/analysis/registry/upload", restCT, restBody.Bytes(), `"ocr_task_id"`},
		{"GraphQL", "/graphql", gqlCT, gqlBody.Bytes(), `"ocrTask":{"id"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := rawHeaders(t, a, tc.path, tok, tc.contentType, len(tc.body), 2*time.Minute)
			defer conn.Close()
			for b := tc.body; len(b) > 0; {
				n := min(len(b), 16<<10)
				if _, err := conn.Write(b[:n]); err != nil {
					t.Fatalf("the server stopped reading after %d of %d bytes: %v", len(tc.body)-len(b), len(tc.body), err)
				}
				b = b[n:]
				time.Sleep(250 * time.Millisecond) // the link's pace: 64 KiB/s
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode/100 != 2 || !strings.Contains(string(body), tc.accepted) {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
		})
	}
	// An outside tester's: a post that stalls inside a part's headers
	// (bufio hands textproto the half line without the deadline's error:
	// it was 400 "could not be read as multipart") is 408 like any other
	// stall, by REST and by GraphQL; and a post declaring more than an
	// upload may be is refused before a byte of it is read (it waited
	// for the body: 408 by REST, 413 after REQUEST_BODY_TIMEOUT by
	// GraphQL).
	for _, tc := range []struct {
		name, path, contentType string
		body                    []byte
	}{
		{"REST", "/nests/" + nest + "/analysis/registry/upload", restCT, restBody.Bytes()},
		{"GraphQL", "/graphql", gqlCT, gqlBody.Bytes()},
	} {
		t.Run(tc.name+", stalled in a part's headers", func(t *testing.T) {
			conn := rawHeaders(t, a, tc.path, tok, tc.contentType, len(tc.body), time.Minute)
			defer conn.Close()
			head := bytes.Index(tc.body, []byte("Content-Disposition")) + len("Content-Dispo")
			if _, err := conn.Write(tc.body[:head]); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "too slowly") {
				t.Errorf("%d %s, want 408", resp.StatusCode, body)
			}
		})
		t.Run(tc.name+", declared too large", func(t *testing.T) {
			conn := rawHeaders(t, a, tc.path, tok, tc.contentType, 50<<20, time.Minute)
			defer conn.Close()
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			want := map[string]int{"REST": http.StatusBadRequest, "GraphQL": http.StatusRequestEntityTooLarge}[tc.name]
			if resp.StatusCode != want || !strings.Contains(string(body), "larger than") {
				t.Errorf("%d %s, want %d saying it is too large", resp.StatusCode, body, want)
			}
		})
	}
	if got := nestLeftovers(t, a, nest); got != "2 files, 2 OCR tasks, 2 objects" {
		t.Errorf("after two uploads: %s", got)
	}
}

// postPages uploads the photos of a copy's pages: by REST as "page"
// fields, or by GraphQL's uploadRegistryPages (one file field a page,
// each mapped to variables.pages.<i>). It returns the status, the REST
// body or the GraphQL response.
func postPages(t *testing.T, a *testApp, tok, nest string, pages [][]byte, overGraphQL bool) (int, map[string]any, gqlResponse) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	path := "/nests/" + nest + "/analysis/registry/upload"
	if overGraphQL {
		path = "/graphql"
		nulls, m := make([]any, len(pages)), map[string][]string{}
		for i := range pages {
			m[fmt.Sprint(i)] = []string{fmt.Sprintf("variables.pages.%d", i)}
		}
		w.WriteField("operations", mustJSON(t, map[string]any{
			"query":     `mutation($nest: ID!, $pages: [Upload!]!) { uploadRegistryPages(nestId: $nest, pages: $pages) { file { id } ocrTask { id status pageCount } reused } }`,
			"variables": map[string]any{"nest": nest, "pages": nulls}}))
		w.WriteField("map", mustJSON(t, m))
	}
	for i, p := range pages {
		field := "page"
		if overGraphQL {
			field = fmt.Sprint(i)
		}
		fw, _ := w.CreateFormFile(field, fmt.Sprintf("page-%d.png", i+1))
		fw.Write(p)
	}
	w.Close()
	req, _ := http.NewRequest(http.MethodPost, a.base+path, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, b := a.do(t, req)
	var rest map[string]any
	var gr gqlResponse
	if overGraphQL {
		if err := json.Unmarshal(b, &gr); err != nil {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
		gr.Status = resp.StatusCode
	} else if err := json.Unmarshal(b, &rest); err != nil {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	return resp.StatusCode, rest, gr
}

// copyNest creates a nest of owner's named name whose registry, as the
// simulator prints it now, runs to two pages (its content follows from the
// nest; two is the fewest that test a copy of several pages, and each page
// is read from its image), and returns it with that copy: a PDF (with its
// text layer) and photos of its pages (PNG, 200 dpi, the page images only).
func copyNest(t *testing.T, a *testApp, owner, name string) (nest string, pdf []byte, photos [][]byte) {
	t.Helper()
	nest = insertNestOfPages(t, a, owner, name, 2)
	reg := nestRegistry(t, a, nest)
	now := time.Now()
	for _, imageOnly := range []bool{false, true} {
		sim, err := issuer.NewSimulator(issuer.SimulatorOptions{ImageOnly: imageOnly})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := sim.Render(reg, now)
		if err != nil {
			t.Fatal(err)
		}
		if !imageOnly {
			pdf = doc.PDF
			continue
		}
		images, err := degrade.PageImages(context.Background(), doc.PDF, 200)
		if err != nil {
			t.Fatal(err)
		}
		for _, img := range images {
			var b bytes.Buffer
			png.Encode(&b, img)
			photos = append(photos, b.Bytes())
		}
	}
	return nest, pdf, photos
}

// TestJavaScriptApolloUploadClient: Apollo Client with apollo-upload-client
// (its UploadHttpLink builds the multipart request) uploads a registry PDF
// and the photos of its pages, and gets the server's refusals as GraphQL
// errors with BAD_USER_INPUT and the reason.
func TestJavaScriptApolloUploadClient(t *testing.T) {
	t.Parallel()
	root, node := jsClientWith(t, "@apollo/client", "apollo-upload-client")
	a := startApp(t, nil)
	tok := a.token(t, "alice", false)
	nest, pdf, photos := copyNest(t, a, "alice", "아폴로 업로드")
	dir := t.TempDir()
	args := []string{"web/test/upload-apollo.mjs", a.base + "/graphql", tok, nest, filepath.Join(dir, "copy.pdf")}
	if err := os.WriteFile(args[4], pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, p := range photos {
		path := filepath.Join(dir, fmt.Sprintf("page-%d.png", i+1))
		if err := os.WriteFile(path, p, 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, path)
	}
	stdout, stderr, code := runNode(t, root, node, 2*time.Minute, args...)
	if code != 0 {
		t.Fatalf("upload-apollo.mjs exited %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	got := map[string]map[string]any{}
	for line := range strings.Lines(stdout) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("upload-apollo.mjs printed %q: %v", line, err)
		}
		got[r["op"].(string)] = r
	}
	if n := dig(got["pdf"], "data", "uploadRegistry", "ocrTask", "pageCount"); n == nil || n.(float64) < 1 || dig(got["pdf"], "data", "uploadRegistry", "file", "size") != float64(len(pdf)) {
		t.Errorf("the PDF: %v", got["pdf"])
	}
	if dig(got["pages"], "data", "uploadRegistryPages", "ocrTask", "pageCount") != float64(len(photos)) {
		t.Errorf("the %d photos: %v", len(photos), got["pages"])
	}
	for op, says := range map[string]string{"refused": "not a PDF, PNG or JPEG", "refusedPage": "page 2 is a PDF"} {
		if dig(got[op], "error", "code") != "BAD_USER_INPUT" || !strings.Contains(fmt.Sprint(dig(got[op], "error", "message")), says) {
			t.Errorf("%s: %v, want BAD_USER_INPUT saying %q", op, got[op], says)
		}
	}
	if left := nestLeftovers(t, a, nest); left != "2 files, 2 OCR tasks, 2 objects" {
		t.Errorf("after two uploads and two refusals: %s", left)
	}
}

// TestUploadRegistryPages: the photos of a two-page registry, uploaded
// together by REST and by GraphQL, are one copy of two pages, read by
// one OCR task and judged whole (no MISSING_PAGE, its 열람일시 read); a
// bad page is refused naming it, and nothing is kept.
func TestUploadRegistryPages(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"})
	tok := a.token(t, "alice", false)
	nest, pdf, photos := copyNest(t, a, "alice", "사진 여러 장")

	// The refusals first, on an empty nest.
	var sliver bytes.Buffer
	png.Encode(&sliver, image.NewGray(image.Rect(0, 0, 150, 900)))
	for _, tc := range []struct {
		name  string
		pages [][]byte
		says  string
	}{
		{"a PDF among the photos", [][]byte{photos[0], pdf}, "page 2 is a PDF: a PDF is uploaded alone"},
		{"an image of no page's shape", [][]byte{photos[0], photos[1], sliver.Bytes()}, "page 3: the image is 150 × 900 pixels"},
		{"an empty page", [][]byte{photos[0], nil}, "page 2 is empty"},
		{"31 pages", slices.Repeat([][]byte{sliver.Bytes()}, 31), "at most 30"},
	} {
		if status, body, _ := postPages(t, a, tok, nest, tc.pages, false); status != http.StatusBadRequest || !strings.Contains(fmt.Sprint(body["message"]), tc.says) {
			t.Errorf("REST, %s: %d %v, want 400 saying %q", tc.name, status, body, tc.says)
		}
		if _, _, r := postPages(t, a, tok, nest, tc.pages, true); r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, tc.says) {
			t.Errorf("GraphQL, %s: %+v, want BAD_USER_INPUT saying %q", tc.name, r.Errors, tc.says)
		}
	}
	if _, _, r := postPages(t, a, tok, nest, nil, true); r.code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "no page was sent") {
		t.Errorf("GraphQL, no pages: %+v", r.Errors)
	}
	var both bytes.Buffer
	mw := multipart.NewWriter(&both)
	fw, _ := mw.CreateFormFile("file", "registry.pdf")
	fw.Write(pdf)
	fw, _ = mw.CreateFormFile("page", "page-1.png")
	fw.Write(photos[0])
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, a.base+"/nests/"+nest+"/analysis/registry/upload", &both)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, b := a.do(t, req); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "send one file, or the photos of the pages") {
		t.Errorf("a file and a page: %d %s", resp.StatusCode, b)
	}
	if got := nestLeftovers(t, a, nest); got != "0 files, 0 OCR tasks, 0 objects" {
		t.Fatalf("after the refusals: %s", got)
	}

	// The whole copy, by REST and by GraphQL.
	status, body, _ := postPages(t, a, tok, nest, photos, false)
	if status != http.StatusAccepted {
		t.Fatalf("REST: %d %v", status, body)
	}
	if body["reused"] != false {
		t.Errorf("REST, the first upload: %v", body)
	}
	// The same photos again, in the same order, over GraphQL: the same
	// copy, so the upload and its read are reused.
	_, _, r := postPages(t, a, tok, nest, photos, true)
	if len(r.Errors) > 0 || dig(r.Data, "uploadRegistryPages", "ocrTask", "pageCount") != float64(len(photos)) ||
		dig(r.Data, "uploadRegistryPages", "reused") != true || dig(r.Data, "uploadRegistryPages", "ocrTask", "id") != body["ocr_task_id"] ||
		dig(r.Data, "uploadRegistryPages", "file", "id") != body["file_id"] {
		t.Fatalf("GraphQL, the same photos again: %+v %v, want the REST upload's %v reused", r.Errors, r.Data, body)
	}
	// One photo mapped onto the list variable itself (variables.pages, not
	// variables.pages.0): a list of one, as GraphQL coerces a single value
	// (it was refused, naming a Go type).
	var one bytes.Buffer
	w := multipart.NewWriter(&one)
	w.WriteField("operations", mustJSON(t, map[string]any{
		"query":     `mutation($nest: ID!, $pages: [Upload!]!) { uploadRegistryPages(nestId: $nest, pages: $pages) { ocrTask { pageCount } } }`,
		"variables": map[string]any{"nest": nest, "pages": nil}}))
	w.WriteField("map", `{"0":["variables.pages"]}`)
	fw, _ = w.CreateFormFile("0", "page-1.png")
	fw.Write(photos[0])
	w.Close()
	req, _ = http.NewRequest(http.MethodPost, a.base+"/graphql", &one)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, b := a.do(t, req); resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"pageCount":1`) {
		t.Errorf("one photo onto variables.pages: %d %s", resp.StatusCode, b)
	}
	q := `query($id: ID!) { ocrTask(id: $id) { status pageCount analysis { verdict reasons { code message } registry { printedAt } } } }`
	for _, task := range []string{body["ocr_task_id"].(string)} {
		var got map[string]any
		testkit.Eventually(t, 3*time.Minute, "the pages' OCR finishes", func() bool {
			got = a.gql(t, tok, q, map[string]any{"id": task}).Data
			s := dig(got, "ocrTask", "status")
			return s == "SUCCESS" || s == "FAILED"
		})
		an := dig(got, "ocrTask", "analysis")
		reasons := fmt.Sprint(dig(an, "reasons"))
		if dig(got, "ocrTask", "status") != "SUCCESS" || dig(got, "ocrTask", "pageCount") != float64(len(photos)) ||
			strings.Contains(reasons, "MISSING_PAGE") || strings.Contains(reasons, "COPY_UNDATED") || dig(an, "registry", "printedAt") == nil {
			t.Errorf("the copy's %d photos read as: %v", len(photos), got)
		}
		t.Logf("%d photos: %v %s", len(photos), dig(an, "verdict"), reasons)
	}
	if got := nestLeftovers(t, a, nest); got != "2 files, 2 OCR tasks, 2 objects" {
		t.Errorf("after two uploads: %s", got)
	}
}

// TestUploadTwiceIsOne: the same copy uploaded again — a client that
// never got its answer, a double click, a storm of the same post — is
// the first upload, reused: one file, one object, one read, by REST (200
// instead of 202) and GraphQL alike, and concurrent posts included; a read
// that failed as UNREADABLE is reused too (the storm's copy, read while
// the storm lasted, was read twice once).
func TestUploadTwiceIsOne(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "두 번 올린 사본")
	photo := pagePNG(230, 230)

	status, first := restUpload(t, a, tok, nest, photo)
	if status != http.StatusAccepted || first["reused"] != false {
		t.Fatalf("the first upload: %d %v", status, first)
	}
	status, again := restUpload(t, a, tok, nest, photo)
	if status != http.StatusOK || again["reused"] != true || again["file_id"] != first["file_id"] || again["ocr_task_id"] != first["ocr_task_id"] {
		t.Errorf("the same upload again: %d %v, want 200 reusing %v", status, again, first)
	}
	r := gqlUpload(t, a, tok, nest, photo)
	if len(r.Errors) > 0 || dig(r.Data, "uploadRegistry", "file", "id") != first["file_id"] || dig(r.Data, "uploadRegistry", "ocrTask", "id") != first["ocr_task_id"] {
		t.Errorf("the same upload over GraphQL: %+v %v", r.Errors, r.Data)
	}
	// A blank page is unreadable: once its read has failed so, the same
	// bytes again are that read, not a second one that would fail alike.
	var failed map[string]any
	testkit.Eventually(t, 60*time.Second, "the blank page's read ends", func() bool {
		failed, _ = dig(a.gql(t, tok, `query($id: ID!) { ocrTask(id: $id) { status errorCode } }`, map[string]any{"id": first["ocr_task_id"]}).Data, "ocrTask").(map[string]any)
		return failed["status"] == "FAILED" || failed["status"] == "SUCCESS"
	})
	if failed["errorCode"] != "UNREADABLE" {
		t.Fatalf("a blank page read as %v, want FAILED UNREADABLE", failed)
	}
	if status, late := restUpload(t, a, tok, nest, photo); status != http.StatusOK || late["ocr_task_id"] != first["ocr_task_id"] {
		t.Errorf("the same upload after its read failed as unreadable: %d %v, want 200 reusing %v", status, late, first["ocr_task_id"])
	}
	// Another nest's upload of the same file is its own.
	other := createNest(t, a, tok, "다른 집")
	if status, body := restUpload(t, a, tok, other, photo); status != http.StatusAccepted || body["file_id"] == first["file_id"] {
		t.Errorf("the same file on another nest: %d %v", status, body)
	}

	// A storm of a new copy, sent at once: one is stored, the rest reuse it
	// (or are refused, beyond the uploads a user may have in flight).
	storm := pagePNG(230, 0)
	var wg sync.WaitGroup
	files := make([]string, 6)
	for i := range files {
		wg.Go(func() {
			status, body := restUpload(t, a, tok, nest, storm)
			switch {
			case status == http.StatusTooManyRequests: // more than MaxUploadsPerUser at once (TestUploadsInFlight)
			case status/100 != 2:
				t.Errorf("storm upload %d: %d %v", i, status, body)
			default:
				files[i], _ = body["file_id"].(string)
			}
		})
	}
	wg.Wait()
	if ids := slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(files))), func(id string) bool { return id == "" }); len(ids) != 1 {
		t.Errorf("a storm of one copy stored as files %v", files)
	}
	if got := nestLeftovers(t, a, nest); got != "2 files, 2 OCR tasks, 2 objects" {
		t.Errorf("after two copies, each uploaded several times: %s", got)
	}
}

// TestUploadAliased: several uploads in one GraphQL request succeed or
// fail field by field: a refused one is null with its error beside the
// stored ones (a stored copy was hidden behind data: null once), and the
// same file variable given twice is one copy, reused (the second field
// read it as empty once).
func TestUploadAliased(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "한 요청에 두 업로드")
	send := func(query string, vars map[string]any, files map[string][]byte) gqlResponse {
		t.Helper()
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		m := map[string][]string{}
		for name := range files {
			vars[name] = nil
			m[name] = []string{"variables." + name}
		}
		w.WriteField("operations", mustJSON(t, map[string]any{"query": query, "variables": vars}))
		w.WriteField("map", mustJSON(t, m))
		for name, content := range files {
			fw, _ := w.CreateFormFile(name, name+".png")
			fw.Write(content)
		}
		w.Close()
		req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, b := a.do(t, req)
		var out gqlResponse
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
		return out
	}
	r := send(`mutation($n: ID!, $f: Upload!) { a: uploadRegistry(nestId: $n, file: $f) { file { id } reused } b: uploadRegistry(nestId: $n, file: $f) { file { id } reused } }`,
		map[string]any{"n": nest}, map[string][]byte{"f": pagePNG(240, 240)})
	if len(r.Errors) > 0 || dig(r.Data, "a", "reused") != false || dig(r.Data, "b", "reused") != true || dig(r.Data, "a", "file", "id") != dig(r.Data, "b", "file", "id") {
		t.Errorf("one file given to two fields: %+v %v", r.Errors, r.Data)
	}
	r = send(`mutation($n: ID!, $g: Upload!, $bad: Upload!) { a: uploadRegistry(nestId: $n, file: $g) { file { id } } b: uploadRegistry(nestId: $n, file: $bad) { file { id } } }`,
		map[string]any{"n": nest}, map[string][]byte{"g": pagePNG(240, 0), "bad": []byte("not a registry")})
	if dig(r.Data, "a", "file", "id") == nil || dig(r.Data, "b") != nil || r.code() != "BAD_USER_INPUT" {
		t.Errorf("a good and a bad file: %+v %v, want the good one stored and shown, the bad one null with its error", r.Errors, r.Data)
	}
	if got := nestLeftovers(t, a, nest); got != "2 files, 2 OCR tasks, 2 objects" {
		t.Errorf("after two copies: %s", got)
	}
}

// TestUploadsInFlight: a user may have MaxUploadsPerUser uploads in flight
// (each holds up to 21 MiB in memory: 30 at once took the process to 1.4
// GB); one more, by REST or GraphQL, is 429 RATE_LIMITED with Retry-After
// before its body is read, another user's is taken, and once one of the
// first is answered a new one is taken again.
func TestUploadsInFlight(t *testing.T) {
	t.Parallel()
	a := startApp(t, nil)
	tok := a.token(t, "alice", false)
	nest := createNest(t, a, tok, "동시에 올린 사본")
	ct, body := uploadForm(t, "file", "registry.png", []byte("x"), nil)
	// Headers and the start of a body: an upload still arriving.
	hold := func() net.Conn {
		conn := rawHeaders(t, a, "/nests/"+nest+"/analysis/registry/upload", tok, ct, body.Len()+1000, time.Minute)
		conn.Write(body.Bytes()[:20])
		return conn
	}
	var held []net.Conn
	for range httpapi.MaxUploadsPerUser {
		held = append(held, hold())
	}
	blank := pagePNG(255, 255)
	testkit.Eventually(t, 30*time.Second, "the held uploads take both of alice's slots", func() bool {
		status, _ := restUpload(t, a, tok, nest, []byte("a probe: refused as no PDF while a slot is free")) // stores nothing
		if status == http.StatusTooManyRequests {
			return true
		}
		// The probe may have held a slot when a held upload asked for
		// one: that upload was answered 429. Hold another in its place.
		for i, c := range held {
			c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
			if n, _ := c.Read(make([]byte, 1)); n > 0 {
				c.Close()
				held[i] = hold()
			}
		}
		return false
	})
	ct2, body2 := uploadForm(t, "file", "registry.png", blank, nil)
	req, _ := http.NewRequest(http.MethodPost, a.base+"/nests/"+nest+"/analysis/registry/upload", body2)
	req.Header.Set("Content-Type", ct2)
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, out := a.do(t, req); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(out), `"error_code":"RATE_LIMITED"`) || !strings.Contains(string(out), "uploads being received") {
		t.Errorf("REST, a third upload in flight: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), out)
	}
	if r := gqlUpload(t, a, tok, nest, blank); r.code() != "RATE_LIMITED" || r.Errors[0].Extensions["retryAfter"] == nil || r.Status != http.StatusTooManyRequests {
		t.Errorf("GraphQL, a third upload in flight: %d %+v", r.Status, r.Errors)
	}
	bob := a.token(t, "bob", false)
	if status, out := restUpload(t, a, bob, createNest(t, a, bob, "밥의 집"), blank); status != http.StatusAccepted {
		t.Errorf("bob, while alice's are in flight: %d %v", status, out)
	}
	for _, c := range held {
		c.Close()
	}
	testkit.Eventually(t, 30*time.Second, "alice's slots come back", func() bool {
		status, _ := restUpload(t, a, tok, nest, blank)
		return status == http.StatusAccepted
	})
	if got := nestLeftovers(t, a, nest); got != "1 files, 1 OCR tasks, 1 objects" {
		t.Errorf("at the end: %s", got)
	}
}
