// The Go evaluator of the cross-client suite: it speaks the evaluator protocol of
// test/clients/README.md (CLIENT_* variables in, JSON lines out) for the official Unleash Go SDK
// (CLIENT_KIND=sdk) or the OpenFeature Go SDK with its OFREP provider (CLIENT_KIND=ofrep).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"time"
)

// evaluator is one client under test: it answers one case at a time and closes as an application would.
type evaluator interface {
	evaluate(raw json.RawMessage) (any, error)
	close()
}

type settings struct {
	kind        string
	url         string
	token       string
	appName     string
	environment string
	refresh     time.Duration
	metrics     time.Duration
}

type request struct {
	ID    json.RawMessage   `json:"id"`
	Op    string            `json:"op"`
	Cases []json.RawMessage `json:"cases"`
}

func main() {
	// Standard output carries only protocol lines; everything else, the SDKs' logs included, goes to standard error.
	log.SetOutput(os.Stderr)
	out := json.NewEncoder(os.Stdout)
	// The Unleash SDK prints some warnings with fmt.Println (a dependency whose parent is missing,
	// say): fmt writes to whatever os.Stdout holds at the call, so from here on that is standard
	// error, and only the encoder above still writes to the real standard output.
	os.Stdout = os.Stderr
	out.SetEscapeHTML(false)

	config, err := readSettings()
	if err != nil {
		failStart(out, err)
	}
	var client evaluator
	var clientName string
	switch config.kind {
	case "sdk":
		client, clientName, err = startUnleash(config)
	case "ofrep":
		client, clientName, err = startOfrep(config)
	default:
		err = fmt.Errorf("CLIENT_KIND must be sdk or ofrep, got %q", config.kind)
	}
	if err != nil {
		failStart(out, err)
	}
	writeLine(out, map[string]any{"ready": true, "client": clientName})
	serve(os.Stdin, out, client)
}

func serve(in io.Reader, out *json.Encoder, client evaluator) {
	lines := bufio.NewScanner(in)
	// A request carries every case of a spec file at once: far larger than the scanner's default line.
	lines.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for lines.Scan() {
		if len(lines.Bytes()) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(lines.Bytes(), &req); err != nil {
			writeLine(out, map[string]any{"id": nil, "error": "not a JSON request: " + err.Error()})
			continue
		}
		switch req.Op {
		case "evaluate":
			results, err := evaluateAll(client, req.Cases)
			if err != nil {
				writeLine(out, map[string]any{"id": req.ID, "error": err.Error()})
				continue
			}
			writeLine(out, map[string]any{"id": req.ID, "results": results})
		case "stop":
			client.close()
			writeLine(out, map[string]any{"id": req.ID, "stopped": true})
			os.Exit(0)
		default:
			writeLine(out, map[string]any{"id": req.ID, "error": fmt.Sprintf("unknown op %q", req.Op)})
		}
	}
	if err := lines.Err(); err != nil {
		log.Printf("reading standard input: %v", err)
	}
	client.close()
}

func evaluateAll(client evaluator, cases []json.RawMessage) ([]any, error) {
	results := make([]any, 0, len(cases))
	for index, raw := range cases {
		result, err := client.evaluate(raw)
		if err != nil {
			return nil, fmt.Errorf("case %d: %w", index, err)
		}
		results = append(results, result)
	}
	return results, nil
}

func readSettings() (settings, error) {
	config := settings{
		kind:        os.Getenv("CLIENT_KIND"),
		url:         os.Getenv("CLIENT_URL"),
		token:       os.Getenv("CLIENT_TOKEN"),
		appName:     os.Getenv("CLIENT_APP_NAME"),
		environment: os.Getenv("CLIENT_ENVIRONMENT"),
	}
	for name, value := range map[string]string{"CLIENT_URL": config.url, "CLIENT_TOKEN": config.token} {
		if value == "" {
			return config, fmt.Errorf("%s is required", name)
		}
	}
	var err error
	if config.refresh, err = seconds("CLIENT_REFRESH_SECONDS", 15); err != nil {
		return config, err
	}
	if config.metrics, err = seconds("CLIENT_METRICS_SECONDS", 60); err != nil {
		return config, err
	}
	return config, nil
}

func seconds(name string, fallback int) (time.Duration, error) {
	text := os.Getenv(name)
	if text == "" {
		return time.Duration(fallback) * time.Second, nil
	}
	value, err := strconv.Atoi(text)
	if err != nil || value <= 0 {
		return 0, fmt.Errorf("%s must be a positive whole number of seconds, got %q", name, text)
	}
	return time.Duration(value) * time.Second, nil
}

func failStart(out *json.Encoder, err error) {
	writeLine(out, map[string]any{"ready": false, "error": err.Error()})
	os.Exit(1)
}

func writeLine(out *json.Encoder, line any) {
	if err := out.Encode(line); err != nil {
		log.Printf("writing standard output: %v", err)
		os.Exit(1)
	}
}
