// Package config reads the binary's environment into one Config (Load). An
// invalid value is an error naming its variable; docs/operations.md documents
// every variable in one table.
//
// A default is written once, in the package that owns the behaviour: where
// jobs or another package defines a default (core.DefaultJobTimeout,
// core.DefaultIssuancePolicy), Load uses it rather than repeating the
// number.
//
// ENV=development gives a workstation everything it needs with no setup:
// the embedded S3 server, the registry simulator, the built-in OCR engine
// and secrets generated once and kept under DATA_DIR (DevSecret), so that a
// printed token or a River UI login survives a restart. ENV=production has
// no such fallback: every secret must be set, and a development part runs
// only when DEVELOPMENT_PARTS names it (the process then logs it at error
// level), so a deploy that forgot a variable fails at start instead of
// serving real traffic from a development part.
package config
