package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
)

func TestConfigErrorsNameTheVariable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env  map[string]string
		name string
	}{
		{map[string]string{"ENV": "staging"}, "ENV"},
		{map[string]string{"ADDR": "8080"}, "ADDR"},
		{map[string]string{"SHUTDOWN_TIMEOUT": "soon"}, "SHUTDOWN_TIMEOUT"},
		{map[string]string{"ISSUANCE_STALE_AFTER": "-5m"}, "ISSUANCE_STALE_AFTER"},
		{map[string]string{"AUTO_MIGRATE": "maybe"}, "AUTO_MIGRATE"},
		{map[string]string{"LOG_LEVEL": "loud"}, "LOG_LEVEL"},
		{map[string]string{"RIVERUI_USER": "ops"}, "RIVERUI_PASSWORD"},
		{map[string]string{"ENV": "production", "JWT_SECRET": "config-test-secret-0123456789-abcdef"}, "DATABASE_URL"},
		{map[string]string{"ENV": "production", "DATABASE_URL": "postgres://x"}, "JWT_SECRET"},
		{map[string]string{"JWT_SECRET": "short"}, "JWT_SECRET"},
		{map[string]string{"ENV": "production", "DATABASE_URL": "postgres://x", "JWT_SECRET": "config-test-secret-0123456789-abcdef"}, "OCR_CALLBACK_KEY"},
		{map[string]string{"OCR_SIGNING_SECRET": "plain"}, "OCR_SIGNING_SECRET"},
		{map[string]string{"OCR_URL": "ftp://x"}, "OCR_URL"},
		{map[string]string{"OCR_URL": "http://a", "OCR_PADDLE_URL": "http://b"}, "OCR_PADDLE_URL"},
		{map[string]string{"OCR_SYNC_PAGE_LIMIT": "0"}, "OCR_SYNC_PAGE_LIMIT"},
		{map[string]string{"ALLOWED_ORIGINS": "https://app.example.com"}, "ALLOWED_ORIGINS"},
		{map[string]string{"BROWSER_ORIGINS": "app.example.com"}, "BROWSER_ORIGINS"},
		{map[string]string{"BROWSER_ORIGINS": "https://*"}, "BROWSER_ORIGINS"},
		{map[string]string{"CORS_ALLOWED_ORIGINS": "https://app.example.com/path"}, "CORS_ALLOWED_ORIGINS"},
		{map[string]string{"JOB_TIMEOUT": "1m", "JOB_RESCUE_AFTER": "1m"}, "JOB_RESCUE_AFTER"},
		{map[string]string{"JOB_RESCUE_AFTER": "never"}, "JOB_RESCUE_AFTER"},
		{map[string]string{"OCR_DEADLINE": "-1s"}, "OCR_DEADLINE"},
		{map[string]string{"OCR_DEADLINE_PER_PAGE": "x"}, "OCR_DEADLINE_PER_PAGE"},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		_, err := Load(func(k string) string {
			if k == "DATA_DIR" {
				return dir
			}
			return tc.env[k]
		})
		if err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%v: error %v does not name %s", tc.env, err, tc.name)
		}
	}
	if _, err := Load(func(k string) string { return map[string]string{"DATA_DIR": dir}[k] }); err != nil {
		t.Fatalf("defaults: %v", err)
	}
}

// TestRecoveryTimerDefaults: River takes a killed worker's job back a
// minute after the longest job may run, not after River's hour.
func TestRecoveryTimerDefaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env             map[string]string
		timeout, rescue time.Duration
	}{
		{nil, 4 * time.Minute, 5 * time.Minute},
		{map[string]string{"JOB_TIMEOUT": "10m"}, 10 * time.Minute, 11 * time.Minute},
		{map[string]string{"JOB_TIMEOUT": "20s"}, 20 * time.Second, 80 * time.Second},
		{map[string]string{"JOB_TIMEOUT": "20s", "JOB_RESCUE_AFTER": "30s"}, 20 * time.Second, 30 * time.Second},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.env), func(t *testing.T) {
			env := map[string]string{"DATA_DIR": t.TempDir()}
			for k, v := range tc.env {
				env[k] = v
			}
			cfg, err := Load(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if cfg.JobTimeout != tc.timeout || cfg.JobRescueAfter != tc.rescue {
				t.Fatalf("timeout %v rescue %v, want %v %v", cfg.JobTimeout, cfg.JobRescueAfter, tc.timeout, tc.rescue)
			}
		})
	}
}

// TestDefaultsAreTheOwnersDefaults: a default Load does not set is the one
// of the package that owns the behaviour, not a second copy of the number.
func TestDefaultsAreTheOwnersDefaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := Load(func(k string) string { return map[string]string{"DATA_DIR": dir}[k] })
	if err != nil {
		t.Fatal(err)
	}
	d := core.DefaultConfig()
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"ISSUANCE_STALE_AFTER", c.StaleAfter, d.IssuanceStaleAfter},
		{"OCR_MAX_WAIT", c.OCRMaxWait, d.OCRMaxWait},
		{"OCR_DEADLINE", c.OCRDeadline, d.OCRDeadline},
		{"OCR_DEADLINE_PER_PAGE", c.OCRDeadlinePerPage, d.OCRDeadlinePerPage},
		{"JOB_TIMEOUT", c.JobTimeout, core.DefaultJobTimeout},
		{"JOB_RESCUE_AFTER", c.JobRescueAfter, core.DefaultRescueAfter(core.DefaultJobTimeout)},
		{"ISSUANCE_WORKERS", c.IssuanceWorkers, jobs.DefaultIssuanceWorkers},
		{"OCR_SYNC_PAGE_LIMIT", c.OCRSyncPageLimit, ocr.DefaultSyncPageLimit},
		{"OCR_ENGINE_WORKERS", c.OCREngineWorkers, runtime.NumCPU()},
		{"ISSUANCE_RETRY_POLICY", fmt.Sprint(c.IssuancePolicy), fmt.Sprint(core.DefaultIssuancePolicy())},
	} {
		if fmt.Sprint(tc.got) != fmt.Sprint(tc.want) {
			t.Errorf("%s defaults to %v, its owner says %v", tc.name, tc.got, tc.want)
		}
	}
}

// TestDevSecret: a development secret is created once and kept; a stored
// value too short for its use, or blank, is replaced.
func TestDevSecret(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data") // created on first use
	gen := func() string { return RandomString(32) }
	first, err := DevSecret(dir, "jwt-secret", 32, gen)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := DevSecret(dir, "jwt-secret", 32, gen); err != nil || again != first {
		t.Fatalf("second read %q, %v; want the stored %q", again, err, first)
	}
	st, err := os.Stat(filepath.Join(dir, "jwt-secret"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("stored with %v, %v; want mode 0600", st.Mode().Perm(), err)
	}
	for _, stored := range []string{"short\n", "   \n", ""} {
		if err := os.WriteFile(filepath.Join(dir, "jwt-secret"), []byte(stored), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := DevSecret(dir, "jwt-secret", 32, gen)
		if err != nil || len(got) < 32 || strings.TrimSpace(got) != got {
			t.Errorf("stored %q: got %q, %v; want a fresh secret", stored, got, err)
		}
	}
	if _, err := DevSecret(filepath.Join(dir, "jwt-secret", "below-a-file"), "x", 1, gen); err == nil {
		t.Error("a DATA_DIR below a file: no error")
	}
}

// TestBrowserOrigins: one setting for HTTP and WebSocket; the two it
// replaces are still read, each with a notice, and allowed for both.
func TestBrowserOrigins(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env     map[string]string
		want    []string
		notices int
	}{
		{map[string]string{"BROWSER_ORIGINS": "https://App.example.com, https://*.example.org"}, []string{"https://app.example.com", "https://*.example.org"}, 0},
		{map[string]string{"CORS_ALLOWED_ORIGINS": "https://app.example.com"}, []string{"https://app.example.com"}, 1},
		{map[string]string{"ALLOWED_ORIGINS": "*.example.com"}, []string{"https://*.example.com", "http://*.example.com"}, 1},
		{map[string]string{"BROWSER_ORIGINS": "https://app.example.com", "CORS_ALLOWED_ORIGINS": "https://app.example.com", "ALLOWED_ORIGINS": "ws.example.com"},
			[]string{"https://app.example.com", "https://ws.example.com", "http://ws.example.com"}, 2},
		{map[string]string{}, nil, 0},
	} {
		env := map[string]string{"DATA_DIR": t.TempDir()}
		for k, v := range c.env {
			env[k] = v
		}
		cfg, err := Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatalf("%v: %v", c.env, err)
		}
		if !slices.Equal(cfg.BrowserOrigins, c.want) || len(cfg.Notices) != c.notices {
			t.Errorf("%v: origins %q, notices %q; want %q and %d notices", c.env, cfg.BrowserOrigins, cfg.Notices, c.want, c.notices)
		}
		for _, n := range cfg.Notices {
			if !strings.Contains(n, "BROWSER_ORIGINS") {
				t.Errorf("the notice %q does not name the new setting", n)
			}
		}
	}
}

// TestEveryVariableIsDocumented: each variable Load reads is in the
// configuration table of docs/operations.md, so a new setting cannot ship
// undocumented.
func TestEveryVariableIsDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]bool{}
	dir := t.TempDir()
	if _, err := Load(func(k string) string {
		read[k] = true
		if k == "DATA_DIR" {
			return dir
		}
		return ""
	}); err != nil {
		t.Fatal(err)
	}
	if len(read) < 20 {
		t.Fatalf("Load read only %d variables: %v", len(read), read)
	}
	for k := range read {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("%s is read by config.Load but not in docs/operations.md", k)
		}
	}
}
