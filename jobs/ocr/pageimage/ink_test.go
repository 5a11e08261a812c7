package pageimage

import (
	"image"
	"image/draw"
	"reflect"
	"testing"
)

func TestInkBands(t *testing.T) {
	t.Parallel()
	const charH = 20
	bin := image.NewGray(image.Rect(0, 0, 1000, 400))
	draw.Draw(bin, bin.Rect, image.White, image.Point{}, draw.Src)
	ink := func(r image.Rectangle) { draw.Draw(bin, r, image.Black, image.Point{}, draw.Src) }
	line := func(top int) {
		for x := 100; x < 600; x += 30 {
			ink(image.Rect(x, top, x+12, top+18))
		}
	}
	line(50)
	ink(image.Rect(40, 100, 960, 102)) // a table's rule
	line(150)
	ink(image.Rect(100, 158, 600, 160)) // a strike through it
	ink(image.Rect(0, 0, 30, 400))      // beyond the paper of a photo
	line(300)
	ink(image.Rect(700, 250, 703, 253)) // a speck: too short a band
	got := inkBands(bin, charH, []image.Rectangle{image.Rect(100, 158, 600, 160)})
	want := []Band{{Top: 50, Bottom: 68}, {Top: 150, Bottom: 168, Struck: true}, {Top: 300, Bottom: 318}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bands %+v, want %+v", got, want)
	}
}
