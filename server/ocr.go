package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/engine"
	"github.com/dungji/dungji/server/auth"
	"github.com/dungji/dungji/server/config"
	"github.com/dungji/dungji/server/httpapi"
)

// setupOCR chooses the OCR engine: OCR_URL (any engine speaking the
// contract), OCR_PADDLE_URL (a PaddleOCR serving deployment behind our async
// adapter) or the built-in engine, mounted on this server.
func (a *App) setupOCR() error {
	hc := &http.Client{Timeout: 2 * time.Minute, Transport: a.tracedTransport(auth.KeyTransport{Key: a.cfg.OCRCallbackKey, Base: http.DefaultTransport.(*http.Transport).Clone()})}
	switch {
	case a.cfg.OCRURL != "":
		a.ocrEngine = ocr.NewHTTPEngine(a.cfg.OCRURL, hc)
	case a.cfg.OCRPaddleURL != "":
		pe, err := engine.NewPaddleEngine(engine.PaddleOptions{BaseURL: a.cfg.OCRPaddleURL, CallbackKey: a.cfg.OCRCallbackKey,
			SigningSecret: a.cfg.OCRSigningSecret})
		if err != nil {
			return fmt.Errorf("OCR_PADDLE_URL: %w", err)
		}
		a.ocrEngine = pe
	default:
		srv, err := engine.NewServer(engine.ServerOptions{
			Workers: a.cfg.OCREngineWorkers, SyncPageLimit: a.cfg.OCRSyncPageLimit,
			CallbackKey: a.cfg.OCRCallbackKey, SigningSecret: a.cfg.OCRSigningSecret, Logger: a.log,
		})
		if err != nil {
			return fmt.Errorf("built-in OCR engine: %w", err)
		}
		a.ocrServer = srv
		a.ocrEngine = ocr.NewHTTPEngine(a.internalBase+httpapi.OCREnginePrefix, hc)
	}
	if a.cfg.OCRSigningSecret != "" {
		wh, err := standardwebhooks.NewWebhook(a.cfg.OCRSigningSecret)
		if err != nil {
			return fmt.Errorf("OCR_SIGNING_SECRET: %w", err)
		}
		a.ocrWebhook = wh
	}
	return nil
}

// ocrEngineCmd runs the built-in OCR engine alone (`dungji ocr-engine`),
// for deployments that scale it apart from the service.
func ocrEngineCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ocr-engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	srv, err := engine.NewServer(engine.ServerOptions{Workers: cfg.OCREngineWorkers, SyncPageLimit: cfg.OCRSyncPageLimit,
		CallbackKey: cfg.OCRCallbackKey, SigningSecret: cfg.OCRSigningSecret, Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.OCREngineAddr)
	if err != nil {
		return fmt.Errorf("listen on OCR_ENGINE_ADDR %s: %w", cfg.OCREngineAddr, err)
	}
	hs := &http.Server{Handler: auth.RequireKey(cfg.OCRCallbackKey, cfg.OCRCallbackKeyPrevious, srv.Handler()),
		ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	log.Info("OCR engine listening", "addr", ln.Addr().String())
	fmt.Fprintf(stdout, "OCR engine on http://%s (requests need %s)\n", ln.Addr(), ocr.HeaderInternalAPIKey)
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
