// Package pageimage holds the pixel kernels of the built-in OCR engine:
// what is done to a page image before Tesseract reads it, and what is
// learnt from its pixels on the way.
//
// Preprocess (and Prepare, which also returns what it found) enlarges a
// narrow page, levels its light, binarises it to find the blobs of ink,
// removes specks and, on a page covered in them, blots (blots.go), turns
// the skew back, takes out strike-through lines (strike.go) and the
// table's rules and the specks beside them (rulespecks.go), finds the
// bands of text (ink.go) and which of them are faint (faint.go), and
// shrinks a title row much taller than the rest (tallrows.go). Page images
// travel as binary PGM files between pdftoppm, Prepare and Tesseract
// (pgm.go). Blobs gives the engine the blobs of ink of a small image, by
// which it tells the characters of an amount apart.
//
// It imports only the standard library: it knows nothing of PDFs, of
// Tesseract or of the engine contract. The engine (jobs/ocr/engine) calls
// it and hands its Band values on as the contract's ocr.Band, a struct of
// the same fields; keeping the contract out of here lets the kernels be
// tested and measured on images alone (jobs/ocr/degrade makes the copies
// they are tested on).
package pageimage
