package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"

	"github.com/go-pdf/fpdf"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/ocr"
)

// Limits on a registry copy a tenant uploads.
const (
	// MaxUploadBytes is the largest file accepted: a registry PDF of many
	// pages or a phone photo is well under it.
	MaxUploadBytes = 20 << 20
	// MaxUploadPixels bounds an image's width × height. An image declares
	// its size in a few bytes and decoding allocates it: a small file
	// claiming 100,000 × 100,000 pixels (a decompression bomb) is refused
	// before anything is decoded. 50 megapixels covers a phone's camera.
	MaxUploadPixels = 50_000_000
	// MaxUploadPages bounds the pages of an uploaded PDF.
	MaxUploadPages = 100
	// MinUploadSide and MaxUploadAspect bound an image's shape: a page's
	// text needs a few hundred pixels each way, and a page (or a few
	// stitched into one tall screenshot) is not ten times as long as it
	// is wide.
	MinUploadSide   = 200
	MaxUploadAspect = 10
)

// uploadDPI is the resolution an uploaded image is placed at in its PDF:
// the OCR engine rasterises at 300 dpi, so every pixel is read as it is.
const uploadDPI = 300

// UploadResult is what UploadRegistry stored and started.
type UploadResult struct {
	File    *db.File
	OCRTask *db.OCRTask
}

// UploadRegistry stores a registry copy the tenant already has — a PDF, or
// a PNG or JPEG photo or scan of one page — under the nest, and starts the
// same OCR task (and so the same analysis and verdict) as an issued
// document. An image is stored as a one-page PDF holding it unchanged (a
// JPEG's bytes as they are, a PNG losslessly). A file that is too large,
// empty, of another type, a PDF that needs a password, is damaged or has no
// pages, or an image that is damaged, too large once decoded or of no
// page's shape is refused with BAD_USER_INPUT (field "file"), and nothing
// is stored: no row, no object.
func (s *Service) UploadRegistry(ctx context.Context, nestID string, body io.Reader) (*UploadResult, error) {
	actor, err := RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	nest, err := s.visibleNest(ctx, s.db.Bun, actor, nestID, false)
	if err != nil {
		return nil, err
	}
	// An upload starts OCR work as requestOcr does and is rate limited
	// the same: an empty bucket refuses it before the file is inspected
	// or stored (a look that gives its token back), and the token is
	// taken in the transaction that creates the OCR task.
	if err := s.db.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := s.rateLimited(ctx, tx, actor); err != nil {
			return err
		}
		return errLooked
	}); !errors.Is(err, errLooked) {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(body, MaxUploadBytes+1))
	if err != nil {
		return nil, InvalidInput("file", "the upload could not be read: %v", err)
	}
	if len(data) > MaxUploadBytes {
		return nil, InvalidInput("file", "the file is larger than %d MiB", MaxUploadBytes>>20)
	}
	if len(data) == 0 {
		return nil, InvalidInput("file", "the file is empty")
	}
	pdf, pages, err := uploadedPDF(ctx, data)
	if err != nil {
		return nil, err
	}

	fileID := newID()
	key := fmt.Sprintf("nests/%s/uploads/%s.pdf", nest.ID, fileID)
	obj, err := s.store.Put(ctx, key, pdf, "application/pdf")
	if err != nil {
		return nil, internal("store the upload", err)
	}
	res := &UploadResult{}
	err = s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		now := s.clock()
		if err := s.rateLimited(ctx, tx, actor); err != nil {
			return err
		}
		f := &db.File{ID: fileID, NestID: nest.ID, Bucket: s.store.Bucket(), Key: obj.Key, Size: obj.Size,
			SHA256: obj.SHA256, ContentType: obj.ContentType, CreatedAt: now}
		if _, err := tx.NewInsert().Model(f).Exec(ctx); err != nil {
			return internal("insert file", err)
		}
		t, err := s.insertOCRTask(ctx, tx, nest.ID, nil, f.ID, actor.UserID, pages, now)
		if err != nil {
			return err
		}
		res.File, res.OCRTask = f, t
		return nil
	})
	if err != nil {
		// Nothing refers to the object: take it back. Should S3 refuse
		// now, the key is under uploads/ with no files row, for an
		// operator to find.
		if derr := s.store.Delete(context.WithoutCancel(ctx), key); derr != nil {
			s.log.ErrorContext(ctx, "upload: remove the object of a failed upload", "key", key, "error", derr)
		}
		return nil, err
	}
	return res, nil
}

// errLooked rolls back the transaction that only looked at the caller's
// rate limit bucket.
var errLooked = errors.New("rate limit looked at")

// uploadedPDF checks an upload and returns it as a PDF with its page count.
func uploadedPDF(ctx context.Context, data []byte) ([]byte, int, error) {
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		n, err := ocr.InspectPDF(ctx, data)
		var je *ocr.JobError
		switch {
		case errors.As(err, &je):
			return nil, 0, InvalidInput("file", "the PDF cannot be read: %s", je.Message)
		case err != nil:
			return nil, 0, internal("inspect the uploaded PDF", err)
		case n > MaxUploadPages:
			return nil, 0, InvalidInput("file", "the PDF has %d pages; at most %d are read", n, MaxUploadPages)
		}
		return data, n, nil
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")), bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		pdf, err := imagePDF(data)
		if err != nil {
			return nil, 0, err
		}
		return pdf, 1, nil
	}
	return nil, 0, InvalidInput("file", "the file is not a PDF, PNG or JPEG")
}

// imagePDF places a PNG or JPEG on a page of its own size at uploadDPI.
func imagePDF(data []byte) ([]byte, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, InvalidInput("file", "the image cannot be read: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, InvalidInput("file", "the image has no pixels")
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxUploadPixels {
		return nil, InvalidInput("file", "the image is %d × %d pixels; at most %d megapixels are read", cfg.Width, cfg.Height, MaxUploadPixels/1_000_000)
	}
	// A page, not a sliver: 1 × 40,000,000 pixels is within the pixel
	// bound, but no page (and no PDF page: 200 inches at most) is that
	// shape, and reading it took minutes and gigabytes before failing.
	if short, long := min(cfg.Width, cfg.Height), max(cfg.Width, cfg.Height); short < MinUploadSide || long > MaxUploadAspect*short {
		return nil, InvalidInput("file", "the image is %d × %d pixels: a photo or scan of one page is at least %d pixels each way and at most %d times as long as it is wide",
			cfg.Width, cfg.Height, MinUploadSide, MaxUploadAspect)
	}
	// Decode it all: a truncated or damaged image fails here, not in OCR.
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, InvalidInput("file", "the image cannot be read: %v", err)
	}
	embed, kind := data, "JPG"
	if format == "png" {
		// Re-encoded: the PDF writer reads neither interlaced nor 16-bit
		// PNGs; the pixels stay the same.
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, internal("re-encode the uploaded PNG", err)
		}
		embed, kind = buf.Bytes(), "PNG"
	} else if format != "jpeg" {
		return nil, InvalidInput("file", "the file is not a PDF, PNG or JPEG")
	}
	w, h := float64(cfg.Width)*25.4/uploadDPI, float64(cfg.Height)*25.4/uploadDPI
	out, err := placeImage(w, h, embed, kind)
	if err != nil && kind == "JPG" {
		// fpdf refuses some valid JPEGs (12-bit, some CMYK): re-encode.
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
			return nil, internal("re-encode the uploaded JPEG", err)
		}
		out, err = placeImage(w, h, buf.Bytes(), kind)
	}
	if err != nil {
		return nil, InvalidInput("file", "the image cannot be placed in a PDF: %v", err)
	}
	return out, nil
}

// placeImage returns a one-page PDF of w × h mm filled by the image.
func placeImage(w, h float64, data []byte, kind string) ([]byte, error) {
	doc := fpdf.NewCustom(&fpdf.InitType{UnitStr: "mm", Size: fpdf.SizeType{Wd: w, Ht: h}})
	doc.SetAutoPageBreak(false, 0)
	opts := fpdf.ImageOptions{ImageType: kind}
	doc.RegisterImageOptionsReader("page", opts, bytes.NewReader(data))
	doc.AddPage()
	doc.ImageOptions("page", 0, 0, w, h, false, opts, 0, "")
	var out bytes.Buffer
	if err := doc.Output(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
