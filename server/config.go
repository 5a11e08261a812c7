package main

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is everything the binary reads from its environment. Each field
// names its variable; README.md documents them in one table.
type Config struct {
	Addr            string        // ADDR
	Env             string        // ENV: development | production
	DatabaseURL     string        // DATABASE_URL
	JWTSecret       string        // JWT_SECRET
	RiverUIUser     string        // RIVERUI_USER
	RiverUIPassword string        // RIVERUI_PASSWORD
	DataDir         string        // DATA_DIR
	ShutdownTimeout time.Duration // SHUTDOWN_TIMEOUT
	StaleAfter      time.Duration // ISSUANCE_STALE_AFTER
	LogLevel        string        // LOG_LEVEL
	AutoMigrate     bool          // AUTO_MIGRATE
}

// Dev reports whether the binary runs in development mode.
func (c Config) Dev() bool { return c.Env == "development" }

// loadConfig reads the configuration from getenv. An invalid value is an
// error naming its variable.
func loadConfig(getenv func(string) string) (Config, error) {
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
	if c.StaleAfter, err = duration(getenv, "ISSUANCE_STALE_AFTER", 5*time.Minute); err != nil {
		return c, err
	}
	if c.AutoMigrate, err = boolean(getenv, "AUTO_MIGRATE", c.Dev()); err != nil {
		return c, err
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return c, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, not %q", c.LogLevel)
	}
	if (c.RiverUIUser == "") != (c.RiverUIPassword == "") {
		return c, fmt.Errorf("RIVERUI_USER and RIVERUI_PASSWORD must be set together")
	}
	if !c.Dev() {
		if c.DatabaseURL == "" {
			return c, fmt.Errorf("DATABASE_URL is required when ENV=production")
		}
		if len(c.JWTSecret) < 32 {
			return c, fmt.Errorf("JWT_SECRET is required when ENV=production and must be at least 32 bytes")
		}
	} else if c.JWTSecret != "" && len(c.JWTSecret) < 16 {
		return c, fmt.Errorf("JWT_SECRET must be at least 16 bytes")
	}
	if abs, err := filepath.Abs(c.DataDir); err == nil {
		c.DataDir = abs
	}
	return c, nil
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
