package config

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/server/live"
)

var validBucket = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// Config is everything the binary reads from its environment. Each field
// names its variable; docs/operations.md documents them in one table.
type Config struct {
	Addr               string         // ADDR
	Env                string         // ENV: development | production
	DatabaseURL        string         // DATABASE_URL
	JWTSecret          string         // JWT_SECRET
	JWTSecretPrevious  string         // JWT_SECRET_PREVIOUS
	JWTIssuer          string         // JWT_ISSUER
	JWTAudience        string         // JWT_AUDIENCE
	BrowserOrigins     live.Origins   // BROWSER_ORIGINS (also read from the old CORS_ALLOWED_ORIGINS and ALLOWED_ORIGINS)
	ReadyzDetails      bool           // READYZ_DETAILS
	RequestTimeout     time.Duration  // REQUEST_TIMEOUT
	BodyTimeout        time.Duration  // REQUEST_BODY_TIMEOUT
	RateLimit          core.RateLimit // RATE_LIMIT
	WSMaxSubscriptions int            // WS_MAX_SUBSCRIPTIONS
	WSMaxConnsPerUser  int            // WS_MAX_CONNECTIONS_PER_USER
	StreamPing         time.Duration  // STREAM_PING_INTERVAL: WebSocket ping / SSE heartbeat
	WSInitTimeout      time.Duration  // WS_INIT_TIMEOUT: connection_init must come within it
	MetricsPublic      bool           // METRICS_PUBLIC
	OTLPEndpoint       string         // OTEL_EXPORTER_OTLP_ENDPOINT
	RiverUIUser        string         // RIVERUI_USER
	RiverUIPassword    string         // RIVERUI_PASSWORD
	DataDir            string         // DATA_DIR
	ShutdownTimeout    time.Duration  // SHUTDOWN_TIMEOUT
	StaleAfter         time.Duration  // ISSUANCE_STALE_AFTER
	LogLevel           string         // LOG_LEVEL
	AutoMigrate        bool           // AUTO_MIGRATE
	// Notices are what Load has to tell the operator at start (an old
	// variable name read); the server logs each as a warning.
	Notices    []string
	NotifyInTx bool             // EVENTS_NOTIFY_IN_TX (benchmarks only)
	Watch      core.WatchConfig // WATCH_MONTHLY_BUDGET, WEBHOOK_ALLOW_PRIVATE, WEBHOOK_SECRET_GRACE (watch.go)

	S3Endpoint  string // S3_ENDPOINT; empty: the embedded S3 server, or AWS resolution when S3AWS
	S3AWS       bool   // S3_ENDPOINT=aws: the AWS SDK's own endpoint resolution
	S3Region    string // S3_REGION
	S3Bucket    string // S3_BUCKET
	S3AccessKey string // S3_ACCESS_KEY_ID
	S3SecretKey string // S3_SECRET_ACCESS_KEY
	S3PathStyle bool   // S3_PATH_STYLE

	IssuerURL       string                   // ISSUER_URL; empty: the simulator
	SimLatency      time.Duration            // ISSUER_SIM_LATENCY
	SimFailures     map[issuer.Cause]float64 // ISSUER_SIM_FAILURES
	SimImageOnly    bool                     // ISSUER_SIM_IMAGE_ONLY
	SimFont         string                   // ISSUER_SIM_FONT
	IssuancePolicy  core.RetryPolicy         // ISSUANCE_RETRY_POLICY
	IssuanceWorkers int                      // ISSUANCE_WORKERS
	JobTimeout      time.Duration            // JOB_TIMEOUT
	JobRescueAfter  time.Duration            // JOB_RESCUE_AFTER

	OCRURL                 string        // OCR_URL; empty: OCR_PADDLE_URL or the built-in engine
	OCRPaddleURL           string        // OCR_PADDLE_URL
	OCRCallbackKey         string        // OCR_CALLBACK_KEY
	OCRCallbackKeyPrevious string        // OCR_CALLBACK_KEY_PREVIOUS
	OCRSigningSecret       string        // OCR_SIGNING_SECRET
	OCRCallbackURL         string        // OCR_CALLBACK_URL; empty: this server's
	OCRSyncPageLimit       int           // OCR_SYNC_PAGE_LIMIT
	OCREngineWorkers       int           // OCR_ENGINE_WORKERS
	OCREngineAddr          string        // OCR_ENGINE_ADDR (dungji ocr-engine)
	InternalAddr           string        // INTERNAL_ADDR; empty: the OCR callback and built-in engine on ADDR
	OCRMaxWait             time.Duration // OCR_MAX_WAIT
	OCRDeadline            time.Duration // OCR_DEADLINE
	OCRDeadlinePerPage     time.Duration // OCR_DEADLINE_PER_PAGE

	// DevParts are the development parts a production process was
	// explicitly allowed to run (DEVELOPMENT_PARTS).
	DevParts map[string]bool
}

// The development parts DEVELOPMENT_PARTS can allow in production.
const (
	devPartEmbeddedS3 = "embedded-s3"      // the in-process S3 server instead of S3_ENDPOINT
	devPartSimulator  = "issuer-simulator" // the simulated registry office instead of ISSUER_URL
	devPartBuiltinOCR = "builtin-ocr"      // the built-in OCR engine instead of OCR_URL
)

// DevPartsInUse lists the development parts this configuration runs: every
// part in development, and in production only those DEVELOPMENT_PARTS
// allowed (Load refuses the others).
func (c Config) DevPartsInUse() []string {
	var parts []string
	if c.S3Endpoint == "" && !c.S3AWS {
		parts = append(parts, devPartEmbeddedS3)
	}
	if c.IssuerURL == "" {
		parts = append(parts, devPartSimulator)
	}
	if c.OCRURL == "" && c.OCRPaddleURL == "" {
		parts = append(parts, devPartBuiltinOCR)
	}
	return parts
}

// Dev reports whether the binary runs in development mode.
func (c Config) Dev() bool { return c.Env == "development" }

// Load reads the configuration from getenv. An invalid value is an
// error naming its variable.
func Load(getenv func(string) string) (Config, error) {
	c := Config{
		Addr:            or(getenv("ADDR"), "127.0.0.1:8080"),
		Env:             or(getenv("ENV"), "development"),
		DatabaseURL:     getenv("DATABASE_URL"),
		JWTSecret:       getenv("JWT_SECRET"),
		RiverUIUser:     getenv("RIVERUI_USER"),
		RiverUIPassword: getenv("RIVERUI_PASSWORD"),
		DataDir:         or(getenv("DATA_DIR"), ".data"),
		LogLevel:        or(getenv("LOG_LEVEL"), "info"),
	}
	if abs, err := filepath.Abs(c.DataDir); err == nil {
		c.DataDir = abs
	}
	if c.Env != "development" && c.Env != "production" {
		return c, fmt.Errorf("ENV must be development or production, not %q", c.Env)
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return c, fmt.Errorf("ADDR %q is not host:port: %v", c.Addr, err)
	}
	var err error
	if c.ShutdownTimeout, err = duration(getenv, "SHUTDOWN_TIMEOUT", 30*time.Second); err != nil {
		return c, err
	}
	if c.StaleAfter, err = duration(getenv, "ISSUANCE_STALE_AFTER", core.DefaultConfig().IssuanceStaleAfter); err != nil {
		return c, err
	}
	if c.AutoMigrate, err = boolean(getenv, "AUTO_MIGRATE", c.Dev()); err != nil {
		return c, err
	}
	if c.NotifyInTx, err = boolean(getenv, "EVENTS_NOTIFY_IN_TX", false); err != nil {
		return c, err
	}
	c.S3Endpoint = getenv("S3_ENDPOINT")
	if c.S3Endpoint == "aws" {
		c.S3Endpoint, c.S3AWS = "", true
	}
	c.S3Region = or(getenv("S3_REGION"), "us-east-1")
	c.S3Bucket = or(getenv("S3_BUCKET"), "dungji")
	c.S3AccessKey, c.S3SecretKey = getenv("S3_ACCESS_KEY_ID"), getenv("S3_SECRET_ACCESS_KEY")
	if (c.S3AccessKey == "") != (c.S3SecretKey == "") {
		return c, fmt.Errorf("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together")
	}
	if c.S3PathStyle, err = boolean(getenv, "S3_PATH_STYLE", c.S3Endpoint != ""); err != nil {
		return c, err
	}
	if c.S3Endpoint != "" {
		if u, err := url.Parse(c.S3Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("S3_ENDPOINT must be an http(s) URL, not %q", c.S3Endpoint)
		}
	}
	if !validBucket.MatchString(c.S3Bucket) {
		return c, fmt.Errorf("S3_BUCKET %q is not a valid bucket name", c.S3Bucket)
	}
	c.IssuerURL = getenv("ISSUER_URL")
	if c.IssuerURL != "" {
		if u, err := url.Parse(c.IssuerURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("ISSUER_URL must be an http(s) URL, not %q", c.IssuerURL)
		}
	}
	if v := getenv("ISSUER_SIM_LATENCY"); v != "" {
		if c.SimLatency, err = time.ParseDuration(v); err != nil || c.SimLatency < 0 {
			return c, fmt.Errorf("ISSUER_SIM_LATENCY must be a duration such as 2s or 0s, not %q", v)
		}
	} else {
		c.SimLatency = 2 * time.Second
	}
	if c.SimFailures, err = issuer.ParseFailureRates(getenv("ISSUER_SIM_FAILURES")); err != nil {
		return c, fmt.Errorf("ISSUER_SIM_FAILURES: %v", err)
	}
	if c.SimImageOnly, err = boolean(getenv, "ISSUER_SIM_IMAGE_ONLY", false); err != nil {
		return c, err
	}
	c.SimFont = getenv("ISSUER_SIM_FONT")
	if c.IssuancePolicy, err = core.ParseRetryPolicy(core.DefaultIssuancePolicy(), getenv("ISSUANCE_RETRY_POLICY")); err != nil {
		return c, fmt.Errorf("ISSUANCE_RETRY_POLICY: %v", err)
	}
	c.IssuanceWorkers = jobs.DefaultIssuanceWorkers
	if v := getenv("ISSUANCE_WORKERS"); v != "" {
		if c.IssuanceWorkers, err = strconv.Atoi(v); err != nil || c.IssuanceWorkers < 1 || c.IssuanceWorkers > 1000 {
			return c, fmt.Errorf("ISSUANCE_WORKERS must be a number from 1 to 1000, not %q", v)
		}
	}
	if c.JobTimeout, err = duration(getenv, "JOB_TIMEOUT", core.DefaultJobTimeout); err != nil {
		return c, err
	}
	if c.JobRescueAfter, err = duration(getenv, "JOB_RESCUE_AFTER", core.DefaultRescueAfter(c.JobTimeout)); err != nil {
		return c, err
	}
	// River's rescuer would take back a job that is still running.
	if c.JobRescueAfter <= c.JobTimeout {
		return c, fmt.Errorf("JOB_RESCUE_AFTER (%v) must be longer than JOB_TIMEOUT (%v)", c.JobRescueAfter, c.JobTimeout)
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return c, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, not %q", c.LogLevel)
	}
	if (c.RiverUIUser == "") != (c.RiverUIPassword == "") {
		return c, fmt.Errorf("RIVERUI_USER and RIVERUI_PASSWORD must be set together")
	}
	if !c.Dev() && c.DatabaseURL == "" {
		return c, fmt.Errorf("DATABASE_URL is required when ENV=production")
	}
	if err := checkJWTSecret(c); err != nil {
		return c, err
	}
	if err := loadOCRConfig(&c, getenv); err != nil {
		return c, err
	}
	if err := loadSecurityConfig(&c, getenv); err != nil {
		return c, err
	}
	if err := loadProductionParts(&c, getenv); err != nil {
		return c, err
	}
	if err := loadWatchConfig(&c, getenv); err != nil {
		return c, err
	}
	return c, nil
}

// LoadTokens reads only what signing a token takes (ENV, DATA_DIR,
// JWT_SECRET, JWT_SECRET_PREVIOUS, JWT_ISSUER, JWT_AUDIENCE), checked as
// Load checks them: `dungji token` in production needs JWT_SECRET, not the
// database, the OCR keys or the store the server needs.
func LoadTokens(getenv func(string) string) (Config, error) {
	c := Config{
		Env:       or(getenv("ENV"), "development"),
		JWTSecret: getenv("JWT_SECRET"),
		DataDir:   or(getenv("DATA_DIR"), ".data"),
	}
	if abs, err := filepath.Abs(c.DataDir); err == nil {
		c.DataDir = abs
	}
	if c.Env != "development" && c.Env != "production" {
		return c, fmt.Errorf("ENV must be development or production, not %q", c.Env)
	}
	if err := checkJWTSecret(c); err != nil {
		return c, err
	}
	c.JWTSecretPrevious = getenv("JWT_SECRET_PREVIOUS")
	if c.JWTSecretPrevious != "" && len(c.JWTSecretPrevious) < 16 {
		return c, fmt.Errorf("JWT_SECRET_PREVIOUS must be at least 16 bytes")
	}
	if !c.Dev() && c.JWTSecretPrevious != "" {
		// Tokens it signed still verify: it is held to JWT_SECRET's rules.
		if len(c.JWTSecretPrevious) < 32 {
			return c, fmt.Errorf("JWT_SECRET_PREVIOUS must be at least 32 bytes when ENV=production, as JWT_SECRET must")
		}
		if err := patternSecret("JWT_SECRET_PREVIOUS", c.JWTSecretPrevious); err != nil {
			return c, err
		}
	}
	c.JWTIssuer, c.JWTAudience = getenv("JWT_ISSUER"), getenv("JWT_AUDIENCE")
	return c, nil
}

// checkJWTSecret: production signs with JWT_SECRET of 32 bytes or more,
// not a pattern; development's, when set, has 16 at least.
func checkJWTSecret(c Config) error {
	if !c.Dev() {
		if c.JWTSecret == "" {
			return fmt.Errorf("JWT_SECRET is required when ENV=production (at least 32 bytes)")
		}
		if len(c.JWTSecret) < 32 {
			return fmt.Errorf("JWT_SECRET must be at least 32 bytes when ENV=production, not %d", len(c.JWTSecret))
		}
		return patternSecret("JWT_SECRET", c.JWTSecret)
	} else if c.JWTSecret != "" && len(c.JWTSecret) < 16 {
		return fmt.Errorf("JWT_SECRET must be at least 16 bytes")
	}
	return nil
}

// A production secret is refused when it is plainly not random, as an
// outside tester's were: 32 spaces, "secret" repeated, a sequence of
// digits, jwt.io's "your-256-bit-secret". A random one passes every test
// below (openssl rand -base64 48, or -hex 32): each test's threshold is far
// from what random text of its length gives.
//
//   - minSecretChars: 32 random hex digits fall among 6 or fewer of the 16
//     with probability under C(16,6)·(6/16)³² ≈ 2·10⁻¹⁰. Counted in
//     characters, not bytes (비밀 repeated was "5 distinct characters").
//   - minTrigramShare: of a secret's runs of three characters, the share
//     that are distinct. A repeated word or a period of 7 repeats its
//     runs (abcdefg×5: 7 of 33). Of 32 random hex digits' 30 runs (of
//     4096 possible), about one draw in ten repeats one at all
//     (C(30,2)/4096), and a share under 3/4 needs 8 repeats.
//   - knownSecrets: the samples of tutorials and generators, found
//     anywhere in it.
const (
	minSecretChars  = 7
	minTrigramShare = 0.75
)

var knownSecrets = []string{"your-256-bit-secret", "your-secret-key", "changeme", "change-me", "change_me", "supersecret", "super-secret", "password", "secretkey", "secret-key", "secret_key", "${"}

// patternSecret refuses a production secret that is plainly not random.
func patternSecret(name, s string) error {
	rs := []rune(s)
	distinct := map[rune]bool{}
	for _, r := range rs {
		distinct[r] = true
	}
	if len(distinct) < minSecretChars {
		return fmt.Errorf("%s has %d distinct %s: a pattern, not a secret (openssl rand -base64 48 makes one)", name, len(distinct), map[bool]string{true: "character", false: "characters"}[len(distinct) == 1])
	}
	runs := map[string]bool{}
	for i := 0; i+3 <= len(rs); i++ {
		runs[string(rs[i:i+3])] = true
	}
	if n := len(rs) - 2; float64(len(runs)) < minTrigramShare*float64(n) {
		return fmt.Errorf("%s repeats itself (%d of its %d runs of three characters are repeats): a pattern, not a secret (openssl rand -base64 48 makes one)", name, n-len(runs), n)
	}
	lower := strings.ToLower(s)
	for _, k := range knownSecrets {
		if strings.Contains(lower, k) {
			return fmt.Errorf("%s contains %q, a sample secret's words: not a secret (openssl rand -base64 48 makes one)", name, k)
		}
	}
	return nil
}

// loadProductionParts makes a production process name every external part:
// a development part (embedded S3, the simulator, the built-in OCR engine)
// runs in production only when DEVELOPMENT_PARTS lists it, and serve logs
// that at error level. Secrets have no development fallback at all.
func loadProductionParts(c *Config, getenv func(string) string) error {
	c.DevParts = map[string]bool{}
	for _, p := range strings.Split(getenv("DEVELOPMENT_PARTS"), ",") {
		switch p = strings.TrimSpace(p); p {
		case "":
		case devPartEmbeddedS3, devPartSimulator, devPartBuiltinOCR:
			c.DevParts[p] = true
		default:
			return fmt.Errorf("DEVELOPMENT_PARTS takes %s, %s or %s, not %q", devPartEmbeddedS3, devPartSimulator, devPartBuiltinOCR, p)
		}
	}
	if c.Dev() {
		return nil
	}
	if c.OCRSigningSecret == "" {
		return fmt.Errorf("OCR_SIGNING_SECRET is required when ENV=production (a Standard Webhooks secret, whsec_<base64>)")
	}
	for _, p := range c.DevPartsInUse() {
		if c.DevParts[p] {
			continue
		}
		switch p {
		case devPartEmbeddedS3:
			return fmt.Errorf("S3_ENDPOINT is required when ENV=production: an S3 URL, or \"aws\" for the AWS SDK's endpoint resolution (DEVELOPMENT_PARTS=%s runs the embedded store)", p)
		case devPartSimulator:
			return fmt.Errorf("ISSUER_URL is required when ENV=production: the registry bot service (DEVELOPMENT_PARTS=%s runs the simulator)", p)
		case devPartBuiltinOCR:
			return fmt.Errorf("OCR_URL is required when ENV=production: the OCR engine service, or OCR_PADDLE_URL (DEVELOPMENT_PARTS=%s runs the built-in engine)", p)
		}
	}
	return nil
}

func loadOCRConfig(c *Config, getenv func(string) string) error {
	var err error
	for _, v := range []struct {
		name string
		dst  *string
	}{{"OCR_URL", &c.OCRURL}, {"OCR_PADDLE_URL", &c.OCRPaddleURL}, {"OCR_CALLBACK_URL", &c.OCRCallbackURL}} {
		*v.dst = getenv(v.name)
		if *v.dst == "" {
			continue
		}
		if u, err := url.Parse(*v.dst); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s must be an http(s) URL, not %q", v.name, *v.dst)
		}
	}
	if c.OCRURL != "" && c.OCRPaddleURL != "" {
		return fmt.Errorf("set OCR_URL or OCR_PADDLE_URL, not both")
	}
	c.OCRCallbackKey = getenv("OCR_CALLBACK_KEY")
	c.OCRCallbackKeyPrevious = getenv("OCR_CALLBACK_KEY_PREVIOUS")
	c.OCRSigningSecret = getenv("OCR_SIGNING_SECRET")
	if c.OCRCallbackKey != "" && len(c.OCRCallbackKey) < 16 {
		return fmt.Errorf("OCR_CALLBACK_KEY must be at least 16 bytes")
	}
	if c.OCRSigningSecret != "" && ocr.CheckSigningSecret(c.OCRSigningSecret) != nil {
		return fmt.Errorf("OCR_SIGNING_SECRET must be a Standard Webhooks secret, whsec_<base64>")
	}
	if !c.Dev() && c.OCRCallbackKey == "" {
		return fmt.Errorf("OCR_CALLBACK_KEY is required when ENV=production")
	}
	if c.OCRCallbackKey == "" {
		if c.OCRCallbackKey, err = DevSecret(c.DataDir, "ocr-callback-key", 1, func() string { return RandomString(24) }); err != nil {
			return fmt.Errorf("development OCR_CALLBACK_KEY: %w", err)
		}
	}
	if c.OCRSigningSecret == "" && c.Dev() {
		if c.OCRSigningSecret, err = DevSecret(c.DataDir, "ocr-signing-secret", 1, ocr.NewSigningSecret); err != nil {
			return fmt.Errorf("development OCR_SIGNING_SECRET: %w", err)
		}
	}
	c.OCRSyncPageLimit, c.OCREngineWorkers = ocr.DefaultSyncPageLimit, runtime.NumCPU()
	for _, v := range []struct {
		name string
		dst  *int
	}{{"OCR_SYNC_PAGE_LIMIT", &c.OCRSyncPageLimit}, {"OCR_ENGINE_WORKERS", &c.OCREngineWorkers}} {
		if s := getenv(v.name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > 256 {
				return fmt.Errorf("%s must be a number from 1 to 256, not %q", v.name, s)
			}
			*v.dst = n
		}
	}
	c.InternalAddr = getenv("INTERNAL_ADDR")
	if c.InternalAddr != "" {
		if _, _, err := net.SplitHostPort(c.InternalAddr); err != nil {
			return fmt.Errorf("INTERNAL_ADDR %q is not host:port", c.InternalAddr)
		}
	}
	c.OCREngineAddr = or(getenv("OCR_ENGINE_ADDR"), "127.0.0.1:8090")
	if _, _, err := net.SplitHostPort(c.OCREngineAddr); err != nil {
		return fmt.Errorf("OCR_ENGINE_ADDR %q is not host:port", c.OCREngineAddr)
	}
	if c.OCRMaxWait, err = duration(getenv, "OCR_MAX_WAIT", core.DefaultConfig().OCRMaxWait); err != nil {
		return err
	}
	if c.OCRDeadline, err = duration(getenv, "OCR_DEADLINE", core.DefaultConfig().OCRDeadline); err != nil {
		return err
	}
	if c.OCRDeadlinePerPage, err = duration(getenv, "OCR_DEADLINE_PER_PAGE", core.DefaultConfig().OCRDeadlinePerPage); err != nil {
		return err
	}
	return nil
}

func loadSecurityConfig(c *Config, getenv func(string) string) error {
	var err error
	t, err := LoadTokens(getenv)
	if err != nil {
		return err
	}
	c.JWTSecretPrevious, c.JWTIssuer, c.JWTAudience = t.JWTSecretPrevious, t.JWTIssuer, t.JWTAudience
	if err := loadOrigins(c, getenv); err != nil {
		return err
	}
	if c.ReadyzDetails, err = boolean(getenv, "READYZ_DETAILS", c.Dev()); err != nil {
		return err
	}
	if c.RequestTimeout, err = duration(getenv, "REQUEST_TIMEOUT", 30*time.Second); err != nil {
		return err
	}
	if c.BodyTimeout, err = duration(getenv, "REQUEST_BODY_TIMEOUT", 20*time.Second); err != nil {
		return err
	}
	if c.RateLimit, err = core.ParseRateLimit(or(getenv("RATE_LIMIT"), "30/m,burst=10")); err != nil {
		return fmt.Errorf("RATE_LIMIT: %v", err)
	}
	if c.MetricsPublic, err = boolean(getenv, "METRICS_PUBLIC", c.Dev()); err != nil {
		return err
	}
	c.OTLPEndpoint = getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	if c.StreamPing, err = duration(getenv, "STREAM_PING_INTERVAL", 15*time.Second); err != nil {
		return err
	}
	if c.WSInitTimeout, err = duration(getenv, "WS_INIT_TIMEOUT", 10*time.Second); err != nil {
		return err
	}
	c.WSMaxSubscriptions, c.WSMaxConnsPerUser = 100, 20
	for _, v := range []struct {
		name string
		dst  *int
	}{{"WS_MAX_SUBSCRIPTIONS", &c.WSMaxSubscriptions}, {"WS_MAX_CONNECTIONS_PER_USER", &c.WSMaxConnsPerUser}} {
		if s := getenv(v.name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > 100000 {
				return fmt.Errorf("%s must be a number from 1 to 100000, not %q", v.name, s)
			}
			*v.dst = n
		}
	}
	return nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func duration(getenv func(string) string, name string, def time.Duration) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as 30s or 5m, not %q", name, v)
	}
	return d, nil
}

func boolean(getenv func(string) string, name string, def bool) (bool, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s must be true or false, not %q", name, v)
	}
	return b, nil
}

// loadOrigins reads BROWSER_ORIGINS, the browser origins allowed over HTTP
// and WebSocket alike, and the two settings it replaces: CORS_ALLOWED_ORIGINS
// (origins, for HTTP) and ALLOWED_ORIGINS (host patterns, for WebSocket,
// taken for http and https). What the old ones list is allowed for both,
// with a notice.
func loadOrigins(c *Config, getenv func(string) string) error {
	add := func(name, o string) error {
		p, err := live.ParseOrigin(o)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if !slices.Contains(c.BrowserOrigins, p) {
			c.BrowserOrigins = append(c.BrowserOrigins, p)
		}
		return nil
	}
	for _, name := range []string{"BROWSER_ORIGINS", "CORS_ALLOWED_ORIGINS", "ALLOWED_ORIGINS"} {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		if name != "BROWSER_ORIGINS" {
			c.Notices = append(c.Notices, name+" is read as BROWSER_ORIGINS, which lists the browser origins for HTTP and WebSocket alike (https://app.example.com, https://*.example.com): rename it")
		}
		for _, o := range strings.Split(v, ",") {
			if o = strings.TrimSpace(o); o == "" {
				continue
			}
			if name == "ALLOWED_ORIGINS" {
				if strings.Contains(o, "/") {
					return fmt.Errorf("ALLOWED_ORIGINS takes host patterns such as app.example.com or *.example.com, not %q (BROWSER_ORIGINS takes origins)", o)
				}
				if err := add(name, "https://"+o); err != nil {
					return err
				}
				if err := add(name, "http://"+o); err != nil {
					return err
				}
				continue
			}
			if err := add(name, o); err != nil {
				return err
			}
		}
	}
	return nil
}
