package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	unleash "github.com/Unleash/unleash-go-sdk/v5"
	"github.com/Unleash/unleash-go-sdk/v5/api"
	unleashcontext "github.com/Unleash/unleash-go-sdk/v5/context"
)

const unleashModule = "github.com/Unleash/unleash-go-sdk/v5"

// How long the first fetch may take before the evaluator gives up and says why.
const firstFetchTimeout = 30 * time.Second

type unleashEvaluator struct {
	client    *unleash.Client
	backupDir string
}

type sdkCase struct {
	Flag    string     `json:"flag"`
	Type    string     `json:"type"`
	Context sdkContext `json:"context"`
}

type sdkContext struct {
	UserID        string            `json:"userId"`
	SessionID     string            `json:"sessionId"`
	RemoteAddress string            `json:"remoteAddress"`
	CurrentTime   string            `json:"currentTime"`
	Environment   string            `json:"environment"`
	AppName       string            `json:"appName"`
	Properties    map[string]string `json:"properties"`
}

type variantResult struct {
	Name           string       `json:"name"`
	Enabled        bool         `json:"enabled"`
	Payload        *api.Payload `json:"payload"`
	FeatureEnabled bool         `json:"featureEnabled"`
}

// readiness is the SDK's listener: the first fetch's outcome decides the ready line, and every
// error or warning after it is logged, as an application's listener would.
type readiness struct {
	ready  chan struct{}
	failed chan error
}

func (r *readiness) OnReady()  { close(r.ready) }
func (r *readiness) OnUpdate() {}
func (r *readiness) OnError(err error) {
	log.Printf("unleash error: %v", err)
	select {
	case r.failed <- err:
	default:
	}
}
func (r *readiness) OnWarning(warning error)         { log.Printf("unleash warning: %v", warning) }
func (r *readiness) OnCount(string, bool)            {}
func (r *readiness) OnSent(unleash.MetricsData)      {}
func (r *readiness) OnRegistered(unleash.ClientData) {}

func startUnleash(config settings) (evaluator, string, error) {
	// The SDK keeps a backup of the flags it fetched and serves it before its first fetch: a
	// directory of this process's own makes sure every answer comes from this server.
	backupDir, err := os.MkdirTemp("", "go-unleash-backup-")
	if err != nil {
		return nil, "", err
	}
	listener := &readiness{ready: make(chan struct{}), failed: make(chan error, 1)}
	options := []unleash.ConfigOption{
		unleash.WithUrl(config.url),
		unleash.WithAppName(config.appName),
		unleash.WithCustomHeaders(map[string][]string{"Authorization": {config.token}}),
		unleash.WithRefreshInterval(config.refresh),
		unleash.WithMetricsInterval(config.metrics),
		unleash.WithBackupPath(backupDir),
		unleash.WithHttpClient(newHTTPClient()),
		unleash.WithListener(listener),
	}
	if config.environment != "" {
		options = append(options, unleash.WithEnvironment(config.environment))
	}
	client, err := unleash.NewClient(options...)
	if err != nil {
		os.RemoveAll(backupDir)
		return nil, "", err
	}
	started := &unleashEvaluator{client: client, backupDir: backupDir}
	select {
	case <-listener.ready:
		return started, moduleVersion(unleashModule), nil
	case err := <-listener.failed:
		// An error that raced a successful first fetch (a registration call, say) is only logged.
		select {
		case <-listener.ready:
			return started, moduleVersion(unleashModule), nil
		default:
		}
		started.close()
		return nil, "", fmt.Errorf("first fetch failed: %w", err)
	case <-time.After(firstFetchTimeout):
		started.close()
		return nil, "", fmt.Errorf("no flags fetched within %s", firstFetchTimeout)
	}
}

func (e *unleashEvaluator) evaluate(raw json.RawMessage) (any, error) {
	var c sdkCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("not an sdk case: %w", err)
	}
	ctx := unleashcontext.Context{
		UserId:        c.Context.UserID,
		SessionId:     c.Context.SessionID,
		RemoteAddress: c.Context.RemoteAddress,
		Environment:   c.Context.Environment,
		AppName:       c.Context.AppName,
		CurrentTime:   c.Context.CurrentTime,
		Properties:    c.Context.Properties,
	}
	switch c.Type {
	case "boolean":
		return map[string]bool{"enabled": e.client.IsEnabled(c.Flag, unleash.WithContext(ctx))}, nil
	case "variant":
		variant := e.client.GetVariant(c.Flag, unleash.WithVariantContext(ctx))
		result := variantResult{Name: variant.Name, Enabled: variant.Enabled, FeatureEnabled: variant.FeatureEnabled}
		// The SDK's payload is a struct, empty when the variant has none: the protocol's null.
		if variant.Payload.Type != "" {
			payload := variant.Payload
			result.Payload = &payload
		}
		return map[string]variantResult{"variant": result}, nil
	default:
		return nil, fmt.Errorf("unknown sdk case type %q", c.Type)
	}
}

func (e *unleashEvaluator) close() {
	if err := e.client.Close(); err != nil {
		log.Printf("closing the unleash client: %v", err)
	}
	os.RemoveAll(e.backupDir)
}
