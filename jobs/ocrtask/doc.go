// Package ocrtask is the OCR capability: RequestOCR and OCRFileNow, the
// upload of a registry copy (UploadRegistry, UploadRegistryPages), the
// workers that submit a file to the engine and check on it at its deadline
// (OCRWorker, OCRDeadlineWorker), the engine's callback (ApplyOCRResult),
// the per-request result cache, and the registry analysis of what was
// read (RegistryAnalysis, its storage and the periodic reanalysis).
//
// It imports jobs/core for the Core, the lifecycle, errors, retries and
// the job arguments; a finished read's watch comparison is inserted by
// core.Core.EnqueueComparison, so it imports no other capability. It
// imports jobs/ocr (the engine contract), jobs/analysis (the judgement of
// a read registry), jobs/blob (the files) and jobs/retry.
package ocrtask
