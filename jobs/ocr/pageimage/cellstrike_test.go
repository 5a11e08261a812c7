package pageimage

import (
	"image"
	"testing"
)

// TestFindCellStrikes: a cancelled entry's 순위번호 is struck through as
// its other cells are, and the line through one digit is too short for
// findStrikes (a struck serif 1, read "+", left the development set's
// first 을구 entry's rank unread: RANK_GUESSED on two of six clean
// copies). On a binary page with a line of text struck through (stems
// every 12 pixels, a character 26 pixels tall, a line 3 rows thick
// through them), a digit's stem crossed by a 20-pixel line on the same
// rows, to its left, is a strike; the same shape elsewhere is not.
func TestFindCellStrikes(t *testing.T) {
	t.Parallel()
	const charH, top = 26, 100
	// fill inks the rectangle x0..x1, y0..y1 (exclusive) of a binary page.
	fill := func(bin *image.Gray, x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				bin.Pix[y*bin.Stride+x] = 0
			}
		}
	}
	page := func(struckText bool, digit func(bin *image.Gray)) *image.Gray {
		bin := image.NewGray(image.Rect(0, 0, 1000, 300))
		for i := range bin.Pix {
			bin.Pix[i] = 255
		}
		for x := 400; x < 700; x += 12 {
			fill(bin, x, top, x+3, top+charH)
		}
		if struckText {
			fill(bin, 395, top+12, 705, top+15)
		}
		digit(bin)
		return bin
	}
	stem := func(bin *image.Gray) { fill(bin, 200, top, 205, top+charH) }
	for _, tt := range []struct {
		name   string
		struck bool
		digit  func(bin *image.Gray)
		want   []image.Rectangle
	}{
		{"struck 1 beside struck text", true, func(bin *image.Gray) { stem(bin); fill(bin, 192, top+12, 212, top+15) }, []image.Rectangle{image.Rect(192, top+12, 212, top+15)}},
		{"a row lower than the strike", true, func(bin *image.Gray) { stem(bin); fill(bin, 192, top+13, 212, top+16) }, []image.Rectangle{image.Rect(192, top+13, 212, top+16)}},
		{"five rows lower", true, func(bin *image.Gray) { stem(bin); fill(bin, 192, top+17, 212, top+20) }, nil},
		{"no struck text on the page", false, func(bin *image.Gray) { stem(bin); fill(bin, 192, top+12, 212, top+15) }, nil},
		{"a bar with a stem above only (ㅗ)", true, func(bin *image.Gray) { fill(bin, 200, top, 205, top+12); fill(bin, 192, top+12, 212, top+15) }, nil},
		{"a bar twice the strike's thickness", true, func(bin *image.Gray) { stem(bin); fill(bin, 192, top+12, 212, top+18) }, nil},
		{"a hyphen, shorter than half a character", true, func(bin *image.Gray) { stem(bin); fill(bin, 196, top+12, 208, top+15) }, nil},
		{"an unstruck digit", true, stem, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := page(tt.struck, tt.digit)
			strikes := findStrikes(bin, charH)
			if want := map[bool]int{true: 1, false: 0}[tt.struck]; len(strikes) != want {
				t.Fatalf("findStrikes: %v, want %d line(s) through the text", strikes, want)
			}
			got := findCellStrikes(bin, charH, strikes)
			if len(got) != len(tt.want) || len(got) == 1 && got[0] != tt.want[0] {
				t.Errorf("findCellStrikes: %v, want %v", got, tt.want)
			}
		})
	}
}
