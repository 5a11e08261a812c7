package ocrtask

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs/core"
)

// TestCheckImageByDecodedCost: an image is judged by what it decodes to
// before it is decoded; a 16-bit one within the bound is placed as 8-bit
// (the PDF writer reads no 16-bit PNG); and when the process's decode
// budget is held by other uploads, an upload waits, then is refused
// UNAVAILABLE with Retry-After, or TIMEOUT when its own time runs out
// first. Not parallel: it holds the process-wide budget.
func TestCheckImageByDecodedCost(t *testing.T) {
	gray16 := image.NewGray16(image.Rect(0, 0, 800, 1100))
	for i := range gray16.Pix {
		gray16.Pix[i] = byte(i * 13)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, gray16); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := checkImage(ctx, buf.Bytes())
	if err != nil {
		t.Fatalf("a 16-bit gray scan: %v", err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(p.data)); err != nil || cfg.ColorModel != color.GrayModel {
		t.Errorf("placed as %v (%v), want 8-bit gray", cfg.ColorModel, err)
	}
	if _, err := placeImages([]placedImage{p}); err != nil {
		t.Errorf("the PDF writer: %v", err)
	}
	for _, c := range []struct {
		cfg    image.Config
		format string
		want   int64
	}{
		{image.Config{ColorModel: color.NRGBA64Model, Width: 7071, Height: 7071}, "png", 8 * 7071 * 7071},
		{image.Config{ColorModel: color.GrayModel, Width: 1000, Height: 1000}, "png", 1_000_000},
		{image.Config{ColorModel: color.YCbCrModel, Width: 8000, Height: 6000}, "jpeg", 72_000_000},
		{image.Config{ColorModel: color.Palette{color.Black}, Width: 10, Height: 10}, "png", 100},
	} {
		if got := decodedBytes(c.cfg, c.format); got != c.want {
			t.Errorf("%v %d × %d: %d bytes, want %d", c.cfg.ColorModel, c.cfg.Width, c.cfg.Height, got, c.want)
		}
	}

	// Other uploads hold the whole budget.
	if err := decodeBudget.Acquire(ctx, DecodeBudgetBytes); err != nil {
		t.Fatal(err)
	}
	defer decodeBudget.Release(DecodeBudgetBytes)
	defer func(d time.Duration) { decodeWait = d }(decodeWait)
	decodeWait = 200 * time.Millisecond
	_, err = checkImage(ctx, buf.Bytes())
	if e := core.AsError(err); e.Code != core.CodeUnavailable || e.RetryAfter == 0 {
		t.Errorf("the budget held: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = checkImage(short, buf.Bytes())
	if e := core.AsError(err); e.Code != core.CodeTimeout || core.HTTPStatus(e.Code) != 504 {
		t.Errorf("the request's time ran out while it waited: %v", err)
	}
}

// peakHeap runs f and returns the most heap it held above what was held
// before, sampled every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > base && v-base > peak.Load() {
				peak.Store(v - base)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-sampled
	return peak.Load()
}

// BenchmarkUploadImageMemory measures the heap one image upload holds
// while it is checked and placed in its PDF: the largest image accepted
// (8-bit RGBA, just under MaxDecodedPageBytes once decoded), a phone's
// 12-megapixel JPEG, and before the decoded-size bound the 16-bit RGBA PNG
// of 7071 × 7071 pixels it let through (now refused unread).
func BenchmarkUploadImageMemory(b *testing.B) {
	rgba := func(w, h int) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				i := img.PixOffset(x, y)
				img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(x), byte(y), byte(x^y), 255
			}
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		return buf.Bytes()
	}
	photo := func(w, h int) []byte {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = byte(i * 31 >> 3)
		}
		var buf bytes.Buffer
		jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
		return buf.Bytes()
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"png-rgba-5790x5790", rgba(5790, 5790)},
		{"jpeg-4000x3000", photo(4000, 3000)},
	} {
		b.Run(c.name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(func() {
					p, err := checkImage(context.Background(), c.data)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := placeImages([]placedImage{p}); err != nil {
						b.Fatal(err)
					}
				}))
			}
			b.ReportMetric(float64(len(c.data))/(1<<20), "file-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
