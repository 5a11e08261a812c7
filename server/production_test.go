package main

import (
	"bytes"
	"context"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/db/dbtest"
	"github.com/dungji/dungji/server/config"
	"github.com/dungji/dungji/server/internal/cluster"
)

// prodStartEnv names every external part of a production process; the
// database is never reached by the refusals below.
func prodStartEnv() map[string]string {
	return map[string]string{
		"ENV":                "production",
		"DATABASE_URL":       "postgres://127.0.0.1:1/none",
		"JWT_SECRET":         "production-test-secret-0123456789-abcdef",
		"OCR_CALLBACK_KEY":   "production-key-0123456789",
		"OCR_SIGNING_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
		"S3_ENDPOINT":        "https://s3.example.internal",
		"ISSUER_URL":         "https://bot.example.internal",
		"OCR_URL":            "https://ocr.example.internal",
	}
}

// runBinary runs the real binary with exactly env (plus PATH and HOME) and
// returns its exit error and stderr; ctx bounds it.
func runBinary(t *testing.T, ctx context.Context, env map[string]string, args ...string) (error, string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, mpBinary(t), args...)
	cmd.Env = cluster.BaseEnv()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	return err, stderr.String()
}

// TestProductionRefusesToStart runs the real binary once per missing part:
// it exits 1 with one line naming the variable to set, before touching
// anything (the database URL points at a closed port).
func TestProductionRefusesToStart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		unset []string
		set   map[string]string
		want  string
	}{
		{"no ENV at all", []string{"ENV"}, nil, "ENV is not set"},
		{"no DATABASE_URL", []string{"DATABASE_URL"}, nil, "DATABASE_URL is required"},
		{"no JWT_SECRET", []string{"JWT_SECRET"}, nil, "JWT_SECRET is required"},
		{"short JWT_SECRET", nil, map[string]string{"JWT_SECRET": "short-secret-0123456789"}, "at least 32 bytes"},
		{"no OCR_CALLBACK_KEY", []string{"OCR_CALLBACK_KEY"}, nil, "OCR_CALLBACK_KEY is required"},
		{"no OCR_SIGNING_SECRET", []string{"OCR_SIGNING_SECRET"}, nil, "OCR_SIGNING_SECRET is required"},
		{"no S3_ENDPOINT", []string{"S3_ENDPOINT"}, nil, "S3_ENDPOINT is required"},
		{"no ISSUER_URL", []string{"ISSUER_URL"}, nil, "ISSUER_URL is required"},
		{"no OCR_URL", []string{"OCR_URL"}, nil, "OCR_URL is required"},
		{"another part allowed, not this one", []string{"S3_ENDPOINT"}, map[string]string{"DEVELOPMENT_PARTS": "issuer-simulator"}, "S3_ENDPOINT is required"},
		{"an unknown development part", nil, map[string]string{"DEVELOPMENT_PARTS": "everything"}, "DEVELOPMENT_PARTS takes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := prodStartEnv()
			for _, k := range tc.unset {
				delete(env, k)
			}
			for k, v := range tc.set {
				env[k] = v
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			err, out := runBinary(t, ctx, env, "serve", "--role=api")
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit %v, want status 1; output:\n%s", err, out)
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "dungji: ") || !strings.Contains(lines[0], tc.want) {
				t.Fatalf("want one line naming %q, got:\n%s", tc.want, out)
			}
		})
	}
}

// TestProductionDevelopmentPartsAreLoud starts the real binary in
// production with the three development parts allowed: it serves, and
// says so at error level once per part.
func TestProductionDevelopmentPartsAreLoud(t *testing.T) {
	t.Parallel()
	env := prodStartEnv()
	delete(env, "S3_ENDPOINT")
	delete(env, "ISSUER_URL")
	delete(env, "OCR_URL")
	env["DEVELOPMENT_PARTS"] = "embedded-s3, issuer-simulator,builtin-ocr"
	env["DATABASE_URL"] = dbtest.NewURL(t)
	env["AUTO_MIGRATE"] = "true"
	env["ADDR"] = mpFreeAddr(t)
	env["DATA_DIR"] = t.TempDir()
	c := &mpCluster{t: t, bin: mpBinary(t), http: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}}
	p, err := c.spawn("production with development parts", "all", env["ADDR"], env)
	if err != nil {
		t.Fatalf("%v\n%s", err, p.out.String())
	}
	out := p.out.String()
	for _, part := range []string{"embedded-s3", "issuer-simulator", "builtin-ocr"} {
		if !strings.Contains(out, `"level":"ERROR","msg":"DEVELOPMENT PART RUNNING IN PRODUCTION`) || !strings.Contains(out, `"part":"`+part+`"`) {
			t.Errorf("no error-level line for %s:\n%s", part, out)
		}
	}
}

func TestProductionS3AWSResolutionIsExplicit(t *testing.T) {
	t.Parallel()
	env := prodStartEnv()
	env["S3_ENDPOINT"] = "aws"
	env["DATA_DIR"] = t.TempDir()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.S3AWS || cfg.S3Endpoint != "" || len(cfg.DevPartsInUse()) != 0 {
		t.Fatalf("S3_ENDPOINT=aws: aws %v endpoint %q dev parts %v", cfg.S3AWS, cfg.S3Endpoint, cfg.DevPartsInUse())
	}
}
