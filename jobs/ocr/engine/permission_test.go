package engine

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/rc4"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/ocr"
)

// TestTextLayerCopyForbidden: a landlord's PDF whose owner forbids copying
// text (encrypted with an empty user password, the copy bit of /P cleared)
// must still be read. Poppler built with ENFORCE_PERMISSIONS refuses such a
// file in pdftotext (exit status 3, "Copying of text from this document is
// not allowed"); every page must then be read from its image by Tesseract
// (SourceOCR), not failed. Debian's poppler is built without it and extracts
// the text anyway, so the reader here runs a pdftotext that enforces the
// permission as such a build does (enforcingPDFToText): the test exercises
// the path whatever poppler the machine has. The unencrypted twin, the same
// page, is read from its text layer, so it is the permission, and nothing
// else, that sends the page to Tesseract. The fixture is checked with
// poppler first, so the test fails loudly if it stops exercising the path.
func TestTextLayerCopyForbidden(t *testing.T) {
	t.Parallel()
	tl, err := installedTools()
	if err != nil {
		t.Skip(err)
	}
	lines := []string{"REGISTRY 1146-2010-012345", "COPY NOT PERMITTED"}
	plain := copyForbiddenPDF(t, lines, false)
	locked := copyForbiddenPDF(t, lines, true)

	dir := t.TempDir()
	plainPath := filepath.Join(dir, "plain.pdf")
	lockedPath := filepath.Join(dir, "locked.pdf")
	for path, b := range map[string][]byte{plainPath: plain, lockedPath: locked} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	// The fixture as poppler sees it: encrypted, printable, not copyable,
	// and the same text as its twin once decrypted.
	info, err := exec.Command(tl.pdfinfo, lockedPath).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo of the encrypted PDF: %v\n%s", err, info)
	}
	if !regexp.MustCompile(`(?m)^Encrypted:\s+yes \(print:yes copy:no `).Match(info) {
		t.Fatalf("pdfinfo does not report an encrypted PDF that forbids copying:\n%s", info)
	}
	out, err := exec.Command(tl.pdftotext, plainPath, "-").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "1146-2010-012345") {
		t.Fatalf("pdftotext of the unencrypted twin: %v\n%s", err, out)
	}
	out, err = exec.Command(tl.pdftotext, lockedPath, "-").CombinedOutput()
	var ee *exec.ExitError
	enforced := errors.As(err, &ee) && ee.ExitCode() == 3
	switch {
	case enforced && strings.Contains(string(out), permissionMessage):
		t.Log("this poppler's pdftotext refuses the encrypted PDF itself")
	case err == nil && strings.Contains(string(out), "1146-2010-012345"):
		t.Log("this poppler's pdftotext ignores the permission (built without ENFORCE_PERMISSIONS)")
	default:
		t.Fatalf("pdftotext of the encrypted PDF: %v, want the permission error or the text\n%s", err, out)
	}

	// With the installed tools, as a job reads it: whatever this poppler
	// does, the document is read.
	pages, err := ReadPDF(context.Background(), locked, nil)
	if err != nil {
		t.Fatalf("ReadPDF of the PDF that forbids copying text: %v", err)
	}
	want := ocr.SourceTextLayer
	if enforced {
		want = ocr.SourceOCR
	}
	if len(pages) != 1 || pages[0].Source != want {
		t.Fatalf("ReadPDF: want one page read from %q, got %+v", want, pages)
	}

	// With a pdftotext that enforces the permission, as a job reads it
	// where poppler enforces it.
	tl.pdftotext = enforcingPDFToText(t, tl)
	out, err = exec.Command(tl.pdftotext, "-layout", plainPath, "-").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "1146-2010-012345") {
		t.Fatalf("enforcing pdftotext of the unencrypted twin: %v\n%s", err, out)
	}
	out, err = exec.Command(tl.pdftotext, "-layout", lockedPath, "-").CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(string(out), permissionMessage) {
		t.Fatalf("enforcing pdftotext of the encrypted PDF: %v, want exit status 3 and the permission error\n%s", err, out)
	}
	spec, err := tesseractLanguageSpec(nil, tl.languages)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(tl, runtime.NumCPU(), testLogger(t))

	pages, err = r.read(context.Background(), plain, spec, 0)
	if err != nil {
		t.Fatalf("unencrypted twin: %v", err)
	}
	if len(pages) != 1 || pages[0].Source != ocr.SourceTextLayer || !strings.Contains(pages[0].Text, "1146-2010-012345") {
		t.Fatalf("unencrypted twin: want one text-layer page with the registry number, got %+v", pages)
	}

	pages, err = r.read(context.Background(), locked, spec, 0)
	if err != nil {
		t.Fatalf("PDF that forbids copying text: %v", err)
	}
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	p := pages[0]
	t.Logf("read from the image: %q (confidence %.2f)", p.Text, p.Confidence)
	if p.Page != 1 || p.Source != ocr.SourceOCR {
		t.Errorf("page %d, source %q; want page 1 read by %q", p.Page, p.Source, ocr.SourceOCR)
	}
	if !strings.Contains(digits(p.Text), digits(lines[0])) {
		t.Errorf("OCR text lacks the digits of %q:\n%s", lines[0], p.Text)
	}
}

// permissionMessage is what poppler's pdftotext says of a PDF whose owner
// forbids copying text when it enforces the permission.
const permissionMessage = "Copying of text from this document is not allowed"

// enforcingPDFToText writes a pdftotext that acts as poppler's built with
// ENFORCE_PERMISSIONS: a PDF pdfinfo reports as not copyable is refused
// with poppler's message and exit status 3; any other is t's pdftotext's
// to read. The PDF is the argument before the output file, as the reader
// passes them.
func enforcingPDFToText(t testing.TB, tl tools) string {
	t.Helper()
	for _, p := range []string{tl.pdfinfo, tl.pdftotext} {
		if strings.Contains(p, "'") {
			t.Skipf("cannot quote %s for sh", p)
		}
	}
	script := fmt.Sprintf(`#!/bin/sh
for a; do pdf=$prev; prev=$a; done
if '%s' "$pdf" | grep -q 'copy:no'; then
	echo 'Permission Error: %s.' >&2
	exit 3
fi
exec '%s' "$@"
`, tl.pdfinfo, permissionMessage, tl.pdftotext)
	path := filepath.Join(t.TempDir(), "pdftotext")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// copyForbiddenPDF returns a one-page A4 PDF that draws lines in Helvetica
// at 32 pt. With encrypt, it is encrypted by the Standard Security Handler,
// revision 2 (RC4, 40-bit key), with an empty user password and /P
// allowing printing but not copying text (PDF 1.7, 7.6.3, algorithms 3.1 to
// 3.4); without, it is the same file unencrypted.
func copyForbiddenPDF(t testing.TB, lines []string, encrypt bool) []byte {
	t.Helper()
	// Bits 1-2 must be 0; clear 4 (modify), 5 (copy and extract text) and
	// 6 (annotations), keep 3 (print) and the reserved bits: -60.
	const permissions = ^int32(0) &^ (1 | 2 | 8 | 16 | 32)
	id := md5.Sum([]byte("dungji copy-forbidden fixture"))

	w := &pdfWriter{}
	var encryptDict string
	if encrypt {
		o := ownerEntry([]byte("owner secret"), nil)
		w.key = fileKey(nil, o, permissions, id[:])
		u := rc4Bytes(w.key, passwordPadding[:])
		encryptDict = fmt.Sprintf("/Filter /Standard /V 1 /R 2 /Length 40 /O <%x> /U <%x> /P %d", o, u, permissions)
	}

	var content bytes.Buffer
	content.WriteString("BT\n/F1 32 Tf\n40 TL\n60 720 Td\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj T*\n", l) // plain ASCII, nothing to escape
	}
	content.WriteString("ET\n")

	w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	w.object(1, "/Type /Catalog /Pages 2 0 R", nil)
	w.object(2, "/Type /Pages /Kids [3 0 R] /Count 1", nil)
	w.object(3, "/Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R", nil)
	w.object(4, "/Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding", nil)
	w.object(5, "", content.Bytes())
	w.object(6, "/Title "+w.str(6, "Copy-forbidden registry")+" /Producer "+w.str(6, "dungji tests"), nil)
	trailer := fmt.Sprintf("/Root 1 0 R /Info 6 0 R /ID [<%x> <%x>]", id, id)
	if encrypt {
		w.key = nil // the encryption dictionary's own strings are not encrypted
		w.object(7, encryptDict, nil)
		trailer += " /Encrypt 7 0 R"
	}
	trailer += fmt.Sprintf(" /Size %d", len(w.offsets)+1)

	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", len(w.offsets)+1)
	for _, off := range w.offsets {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&w.buf, "trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n", trailer, xref)
	return w.buf.Bytes()
}

// pdfWriter writes numbered objects (1, 2, … in order, generation 0),
// encrypting their strings and streams when key is set.
type pdfWriter struct {
	buf     bytes.Buffer
	offsets []int // of object i+1
	key     []byte
}

// object writes object num, a dictionary of entries; with stream, the
// dictionary gets its /Length and the stream follows.
func (w *pdfWriter) object(num int, entries string, stream []byte) {
	w.offsets = append(w.offsets, w.buf.Len())
	fmt.Fprintf(&w.buf, "%d 0 obj\n", num)
	if stream == nil {
		fmt.Fprintf(&w.buf, "<< %s >>\nendobj\n", entries)
		return
	}
	data := w.encrypt(num, stream)
	fmt.Fprintf(&w.buf, "<< %s /Length %d >>\nstream\n%s\nendstream\nendobj\n", strings.TrimSpace(entries), len(data), data)
}

// str is s as a hexadecimal string of object num.
func (w *pdfWriter) str(num int, s string) string {
	return "<" + hex.EncodeToString(w.encrypt(num, []byte(s))) + ">"
}

// encrypt is algorithm 3.1: RC4 with the file key extended by the object's
// number (3 bytes) and generation (2 bytes, 0), hashed and cut to
// min(len(key)+5, 16) bytes. Without a key, data as it is.
func (w *pdfWriter) encrypt(num int, data []byte) []byte {
	if w.key == nil {
		return data
	}
	k := append(bytes.Clone(w.key), byte(num), byte(num>>8), byte(num>>16), 0, 0)
	sum := md5.Sum(k)
	return rc4Bytes(sum[:min(len(w.key)+5, 16)], data)
}

// passwordPadding pads passwords to 32 bytes (PDF 1.7, algorithm 3.2).
var passwordPadding = [32]byte{
	0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
	0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
}

// padPassword is a password cut or padded to 32 bytes.
func padPassword(pw []byte) []byte {
	return append(bytes.Clone(pw[:min(len(pw), 32)]), passwordPadding[:32-min(len(pw), 32)]...)
}

// fileKey is algorithm 3.2 for revision 2: the 5-byte key of the MD5 of the
// padded user password, O, P (4 bytes, low-order first) and the first ID.
func fileKey(user, o []byte, p int32, id []byte) []byte {
	h := md5.New()
	h.Write(padPassword(user))
	h.Write(o)
	h.Write(binary.LittleEndian.AppendUint32(nil, uint32(p)))
	h.Write(id)
	return h.Sum(nil)[:5]
}

// ownerEntry is algorithm 3.3 for revision 2: the padded user password
// encrypted with the first 5 bytes of the MD5 of the padded owner password.
func ownerEntry(owner, user []byte) []byte {
	sum := md5.Sum(padPassword(owner))
	return rc4Bytes(sum[:5], padPassword(user))
}

// rc4Bytes is data encrypted (or decrypted) with RC4 under key.
func rc4Bytes(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		panic(err) // keys here are 5 to 16 bytes
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}
