package ocrtask

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/uptrace/bun"
	"golang.org/x/sync/semaphore"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
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
	// MaxUploadPhotos bounds the photos of one copy's pages uploaded
	// together (UploadRegistryPages): a registry runs to a few pages.
	MaxUploadPhotos = 30
	// MaxDecodedPageBytes bounds what one image decodes to, from its
	// declared size and depth, before it is decoded: a 393 KiB 16-bit RGBA
	// PNG of 7071 × 7071 pixels decoded to 762 MB. A 50-megapixel phone
	// photo (a JPEG, 1.5 bytes a pixel) and an 8-bit RGB scan of 30
	// megapixels are within it.
	MaxDecodedPageBytes = 128 << 20
	// DecodeBudgetBytes bounds what the images being decoded at once, by
	// every upload of the process, may hold (each charged its decoded size
	// and the copies made of it): an upload beyond it waits its turn, up to
	// decodeWait, then is refused UNAVAILABLE with Retry-After.
	DecodeBudgetBytes = 512 << 20
)

// decodeBudget holds DecodeBudgetBytes among the images being decoded.
var decodeBudget = semaphore.NewWeighted(DecodeBudgetBytes)

// decodeWait is how long an upload waits for room to decode its image.
var decodeWait = 10 * time.Second

// decodedBytes is what an image of cfg decodes to in Go's image package:
// its pixels times their bytes (a JPEG's YCbCr counted at 4:2:0).
func decodedBytes(cfg image.Config, format string) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	switch m := cfg.ColorModel; {
	case m == color.GrayModel || m == color.AlphaModel:
		return px
	case m == color.Gray16Model || m == color.Alpha16Model:
		return 2 * px
	case m == color.YCbCrModel && format == "jpeg":
		return px * 3 / 2
	case m == color.RGBAModel || m == color.NRGBAModel || m == color.CMYKModel || m == color.YCbCrModel || m == color.NYCbCrAModel:
		return 4 * px
	default:
		if _, ok := m.(color.Palette); ok {
			return px
		}
		return 8 * px // RGBA64, NRGBA64, or a model not named: the most a pixel takes
	}
}

// uploadDPI is the resolution an uploaded image is placed at in its PDF:
// the OCR engine rasterises at 300 dpi, so every pixel is read as it is.
const uploadDPI = 300

// UploadResult is what UploadRegistry stored and started.
type UploadResult struct {
	File    *db.File
	OCRTask *db.OCRTask
	// Reused is set when the same copy was uploaded to the nest before:
	// File is that upload's, OCRTask its latest read (a new one when that
	// read failed), and nothing new was stored.
	Reused bool
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
func (s *Reads) UploadRegistry(ctx context.Context, nestID string, body io.Reader) (*UploadResult, error) {
	actor, nest, err := s.uploadNest(ctx, nestID)
	if err != nil {
		return nil, err
	}
	// An upload starts OCR work as requestOcr does and is rate limited
	// the same: an empty bucket refuses it before the file is inspected
	// or stored (a look that gives its token back), and the token is
	// taken in the transaction that creates the OCR task.
	if err := s.uploadAllowed(ctx, actor); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(body, MaxUploadBytes+1))
	if err != nil {
		return nil, core.InvalidInput("file", "the upload could not be read: %v", err)
	}
	if len(data) > MaxUploadBytes {
		return nil, core.InvalidInput("file", "the file is larger than %d MiB", MaxUploadBytes>>20)
	}
	if len(data) == 0 {
		return nil, core.InvalidInput("file", "the file is empty")
	}
	pdf, pages, err := s.uploadedPDF(ctx, data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return s.storeUpload(ctx, actor, nest, pdf, pages, hex.EncodeToString(sum[:]))
}

// UploadRegistryPages is UploadRegistry for a copy photographed (or
// scanned) page by page: the PNG or JPEG images of its pages, in order,
// at most MaxUploadPhotos and MaxUploadBytes together, stored as one PDF
// of as many pages, each holding its image unchanged, and read by one OCR
// task, so that the verdict judges the document whole (a photo of one
// page of three is PARTIAL: MISSING_PAGE). Each image is checked as
// UploadRegistry checks one; a refusal (field "pages") names the page.
func (s *Reads) UploadRegistryPages(ctx context.Context, nestID string, pages []io.Reader) (*UploadResult, error) {
	actor, nest, err := s.uploadNest(ctx, nestID)
	if err != nil {
		return nil, err
	}
	switch {
	case len(pages) == 0:
		return nil, core.InvalidInput("pages", "no page was sent: send the photos of the copy's pages, in order")
	case len(pages) > MaxUploadPhotos:
		return nil, core.InvalidInput("pages", "%d pages were sent; at most %d are read", len(pages), MaxUploadPhotos)
	}
	if err := s.uploadAllowed(ctx, actor); err != nil {
		return nil, err
	}
	images := make([]placedImage, len(pages))
	total := 0
	digest := sha256.New() // of the pages' digests, in order
	for i, r := range pages {
		if ctx.Err() != nil {
			return nil, core.TimedOut(ctx)
		}
		data, err := io.ReadAll(io.LimitReader(r, int64(MaxUploadBytes-total)+1))
		if err != nil {
			return nil, core.InvalidInput("pages", "page %d could not be read: %v", i+1, err)
		}
		if total += len(data); total > MaxUploadBytes {
			return nil, core.InvalidInput("pages", "the pages are larger than %d MiB together", MaxUploadBytes>>20)
		}
		if len(data) == 0 {
			return nil, core.InvalidInput("pages", "page %d is empty", i+1)
		}
		pageSum := sha256.Sum256(data)
		digest.Write(pageSum[:])
		switch {
		case bytes.HasPrefix(data, []byte("%PDF-")):
			return nil, core.InvalidInput("pages", "page %d is a PDF: a PDF is uploaded alone, as file, and the pages' photos as PNG or JPEG", i+1)
		case !isImage(data):
			return nil, core.InvalidInput("pages", "page %d is not a PNG or JPEG", i+1)
		}
		if images[i], err = checkImage(ctx, data); err != nil {
			var je *core.Error
			if errors.As(err, &je) && je.Code == core.CodeBadUserInput {
				return nil, core.InvalidInput("pages", "page %d: %s", i+1, je.Message)
			}
			return nil, err
		}
	}
	pdf, err := placeImages(images)
	if err != nil {
		return nil, core.InvalidInput("pages", "the images cannot be placed in a PDF: %v", err)
	}
	return s.storeUpload(ctx, actor, nest, pdf, len(images), "pages:"+hex.EncodeToString(digest.Sum(nil)))
}

// uploadNest is the caller and the nest an upload goes to, which they must
// own (an upload spends the nest owner's limits).
func (s *Reads) uploadNest(ctx context.Context, nestID string) (core.Actor, *db.Nest, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return core.Actor{}, nil, err
	}
	nest, err := s.OwnNest(ctx, s.DB.Bun, actor, nestID, false)
	return actor, nest, err
}

// uploadAllowed refuses an upload when the caller's rate limit bucket is
// empty: an upload starts OCR work as requestOcr does, and is refused
// before its file is inspected or stored (a look that gives its token
// back; storeUpload takes it in the transaction that creates the task).
func (s *Reads) uploadAllowed(ctx context.Context, actor core.Actor) error {
	err := s.DB.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := s.RateLimited(ctx, tx, actor); err != nil {
			return err
		}
		return errLooked
	})
	if errors.Is(err, errLooked) {
		return nil
	}
	return err
}

// storeUpload stores a checked upload, as a PDF of pages pages, under the
// nest and creates its files row and OCR task; an object no row refers to
// is taken back. sha is the digest of what was uploaded: the same copy
// again (a client that never got its answer and sent it once more, a
// double click) is its earlier upload, reused, not a second one.
func (s *Reads) storeUpload(ctx context.Context, actor core.Actor, nest *db.Nest, pdf []byte, pages int, sha string) (*UploadResult, error) {
	if f, err := s.uploadedBefore(ctx, s.DB.Bun, nest.ID, sha); err != nil || f != nil {
		if err != nil {
			return nil, err
		}
		return s.reuseUpload(ctx, f)
	}
	fileID := core.NewID()
	key := fmt.Sprintf("nests/%s/uploads/%s.pdf", nest.ID, fileID)
	obj, err := s.Store.Put(ctx, key, pdf, "application/pdf")
	if err != nil {
		return nil, core.Internal("store the upload", err)
	}
	res := &UploadResult{}
	var twin *db.File
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		now := s.Clock()
		// Two of the same copy at once: one stores it, the other finds it.
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", nest.ID+"/"+sha); err != nil {
			return core.Internal("lock the upload's digest", err)
		}
		f, err := s.uploadedBefore(ctx, tx, nest.ID, sha)
		if err != nil {
			return err
		}
		if f != nil {
			twin = f
			return errLooked
		}
		if err := s.RateLimited(ctx, tx, actor); err != nil {
			return err
		}
		f = &db.File{ID: fileID, NestID: nest.ID, Bucket: s.Store.Bucket(), Key: obj.Key, Size: obj.Size,
			SHA256: obj.SHA256, ContentType: obj.ContentType, CreatedAt: now, UploadSHA256: &sha}
		if _, err := tx.NewInsert().Model(f).Exec(ctx); err != nil {
			return core.Internal("insert file", err)
		}
		t, err := s.InsertOCRTask(ctx, tx, nest.ID, nil, f.ID, actor.UserID, pages, now)
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
		if derr := s.Store.Delete(context.WithoutCancel(ctx), key); derr != nil {
			s.Log.ErrorContext(ctx, "upload: remove the object of a failed upload", "key", key, "error", derr)
		}
		if twin != nil {
			return s.reuseUpload(ctx, twin)
		}
		return nil, err
	}
	return res, nil
}

// uploadedBefore returns the nest's upload of digest sha, or nil.
func (s *Reads) uploadedBefore(ctx context.Context, q bun.IDB, nestID, sha string) (*db.File, error) {
	var fs []*db.File
	if err := q.NewSelect().Model(&fs).Where("nest_id = ? AND upload_sha256 = ?", nestID, sha).
		OrderExpr("created_at, id").Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("look for the same upload", err)
	}
	if len(fs) == 0 {
		return nil, nil
	}
	return fs[0], nil
}

// reuseUpload answers an upload of a copy the nest has: its file and its
// latest read, or a new read (RequestOCR, rate limited) when that failed
// for a reason of the engine's. A read that failed as UNREADABLE is the
// answer for these bytes: the same bytes again would be read the same, so
// they are given that read (a storm of one blank photo started a second
// read once the first had failed, in make test).
func (s *Reads) reuseUpload(ctx context.Context, f *db.File) (*UploadResult, error) {
	var ts []*db.OCRTask
	if err := s.DB.Bun.NewSelect().Model(&ts).Where("file_id = ?", f.ID).OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, core.Internal("load the upload's OCR task", err)
	}
	if len(ts) == 1 && (ts[0].Status != db.StatusFailed || unreadable(ts[0])) {
		return &UploadResult{File: f, OCRTask: ts[0], Reused: true}, nil
	}
	r, err := s.RequestOCR(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	return &UploadResult{File: f, OCRTask: r.Task, Reused: true}, nil
}

// unreadable: the read failed because the copy cannot be read.
func unreadable(t *db.OCRTask) bool {
	return t.ErrorCode != nil && core.Code(*t.ErrorCode) == core.CodeOCRUnreadable
}

// errLooked rolls back the transaction that only looked at the caller's
// rate limit bucket.
var errLooked = errors.New("rate limit looked at")

// uploadedPDF checks an upload and returns it as a PDF with its page count.
func (s *Reads) uploadedPDF(ctx context.Context, data []byte) ([]byte, int, error) {
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		if s.InspectPDF == nil {
			return nil, 0, core.Internal("inspect the uploaded PDF", errors.New("the service was made without InspectPDF"))
		}
		n, err := s.InspectPDF(ctx, data)
		var je *ocr.JobError
		switch {
		case errors.As(err, &je):
			return nil, 0, core.InvalidInput("file", "the PDF cannot be read: %s", je.Message)
		case err != nil:
			return nil, 0, core.Internal("inspect the uploaded PDF", err)
		case n > MaxUploadPages:
			return nil, 0, core.InvalidInput("file", "the PDF has %d pages; at most %d are read", n, MaxUploadPages)
		}
		return data, n, nil
	case isImage(data):
		img, err := checkImage(ctx, data)
		if err != nil {
			return nil, 0, err
		}
		pdf, err := placeImages([]placedImage{img})
		if err != nil {
			return nil, 0, core.InvalidInput("file", "the image cannot be placed in a PDF: %v", err)
		}
		return pdf, 1, nil
	}
	return nil, 0, core.InvalidInput("file", "the file is not a PDF, PNG or JPEG")
}

// isImage reports whether data starts as a PNG or a JPEG does.
func isImage(data []byte) bool {
	return bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || bytes.HasPrefix(data, []byte("\xff\xd8\xff"))
}

// placedImage is an image checked for a PDF page: its bytes as the PDF
// writer takes them (kind PNG or JPG) and its size on the page, in mm.
type placedImage struct {
	data []byte
	kind string
	w, h float64
}

// checkImage checks a PNG or JPEG as a page's photo or scan and returns
// it ready for a page of its own size at uploadDPI. It decodes the image
// only when what it decodes to is within MaxDecodedPageBytes, and while it
// holds what that costs at its peak of decodeBudget.
func checkImage(ctx context.Context, data []byte) (placedImage, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return placedImage{}, core.InvalidInput("file", "the image cannot be read: it is damaged, truncated or not a PNG or JPEG")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return placedImage{}, core.InvalidInput("file", "the image has no pixels")
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxUploadPixels {
		return placedImage{}, core.InvalidInput("file", "the image is %d × %d pixels; at most %d megapixels are read", cfg.Width, cfg.Height, MaxUploadPixels/1_000_000)
	}
	// A page, not a sliver: 1 × 40,000,000 pixels is within the pixel
	// bound, but no page (and no PDF page: 200 inches at most) is that
	// shape, and reading it took minutes and gigabytes before failing.
	if short, long := min(cfg.Width, cfg.Height), max(cfg.Width, cfg.Height); short < MinUploadSide || long > MaxUploadAspect*short {
		return placedImage{}, core.InvalidInput("file", "the image is %d × %d pixels: a photo or scan of one page is at least %d pixels each way and at most %d times as long as it is wide",
			cfg.Width, cfg.Height, MinUploadSide, MaxUploadAspect)
	}
	if format != "png" && format != "jpeg" {
		return placedImage{}, core.InvalidInput("file", "the file is not a PDF, PNG or JPEG")
	}
	size := decodedBytes(cfg, format)
	if size > MaxDecodedPageBytes {
		return placedImage{}, core.InvalidInput("file", "the image is %d × %d pixels of %d bytes each: %d MiB once decoded, and at most %d MiB a page are read (send it as an 8-bit PNG or a JPEG)",
			cfg.Width, cfg.Height, size/(int64(cfg.Width)*int64(cfg.Height)), size>>20, MaxDecodedPageBytes>>20)
	}
	// What the check holds at its peak, as BenchmarkUploadImageMemory
	// measures it: a PNG its pixels and their re-encoding (135 MiB for
	// 128 MiB of pixels), a JPEG four times its YCbCr pixels (72 MiB for a
	// 12-megapixel photo: the PDF writer's reading of it, twice).
	charge := min(2*size, DecodeBudgetBytes)
	if format == "jpeg" {
		charge = min(4*size, DecodeBudgetBytes)
	}
	if err := acquireDecode(ctx, charge); err != nil {
		return placedImage{}, err
	}
	defer decodeBudget.Release(charge)
	// Decode it all: a truncated or damaged image fails here, not in OCR.
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return placedImage{}, core.InvalidInput("file", "the image cannot be read: it is damaged, truncated or not a PNG or JPEG")
	}
	embed, kind := data, "JPG"
	if format == "png" {
		// Re-encoded, 8 bits deep: the PDF writer reads neither
		// interlaced nor 16-bit PNGs; the pixels stay as they look.
		var buf bytes.Buffer
		if err := png.Encode(&buf, eightBit(img)); err != nil {
			return placedImage{}, core.Internal("re-encode the uploaded PNG", err)
		}
		embed, kind = buf.Bytes(), "PNG"
	}
	p := placedImage{data: embed, kind: kind, w: float64(cfg.Width) * 25.4 / uploadDPI, h: float64(cfg.Height) * 25.4 / uploadDPI}
	if kind != "JPG" {
		return p, nil
	}
	if _, err := placeImages([]placedImage{p}); err != nil {
		// fpdf refuses some valid JPEGs (12-bit, some CMYK): re-encode.
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
			return placedImage{}, core.Internal("re-encode the uploaded JPEG", err)
		}
		p.data = buf.Bytes()
	}
	return p, nil
}

// acquireDecode takes n bytes of decodeBudget, waiting up to decodeWait:
// UNAVAILABLE with Retry-After when other uploads hold it that long,
// TIMEOUT when the request's own time ran out first.
func acquireDecode(ctx context.Context, n int64) error {
	wctx, cancel := context.WithTimeout(ctx, decodeWait)
	defer cancel()
	if err := decodeBudget.Acquire(wctx, n); err != nil {
		if ctx.Err() != nil {
			return core.TimedOut(ctx)
		}
		return &core.Error{Code: core.CodeUnavailable, RetryAfter: 5 * time.Second,
			Message: "the server is reading other uploads' images: send this one again in a few seconds"}
	}
	return nil
}

// eightBit is img with 8 bits a channel: a 16-bit image drawn into an
// 8-bit gray or RGBA one; any other is itself.
func eightBit(img image.Image) image.Image {
	switch img.(type) {
	case *image.Gray16:
		out := image.NewGray(img.Bounds())
		draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
		return out
	case *image.RGBA64, *image.NRGBA64:
		out := image.NewRGBA(img.Bounds())
		draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
		return out
	}
	return img
}

// placeImages returns a PDF of one page an image, each page the image's
// size.
func placeImages(images []placedImage) ([]byte, error) {
	doc := fpdf.NewCustom(&fpdf.InitType{UnitStr: "mm", Size: fpdf.SizeType{Wd: images[0].w, Ht: images[0].h}})
	doc.SetAutoPageBreak(false, 0)
	for i, p := range images {
		name := fmt.Sprintf("page%d", i)
		opts := fpdf.ImageOptions{ImageType: p.kind}
		doc.RegisterImageOptionsReader(name, opts, bytes.NewReader(p.data))
		doc.AddPageFormat("P", fpdf.SizeType{Wd: p.w, Ht: p.h})
		doc.ImageOptions(name, 0, 0, p.w, p.h, false, opts, 0, "")
	}
	var out bytes.Buffer
	if err := doc.Output(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
