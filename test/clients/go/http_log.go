package main

import (
	"io"
	"log"
	"net/http"
	"os"
	"runtime/debug"
	"time"
)

// loggingTransport writes each call the SDK makes to standard error: every answer that is not a
// success (a 4xx or 5xx from the service is a difference to report), and every call when
// CLIENT_TRACE_HTTP=1, with the headers the SDK sent.
type loggingTransport struct {
	next  http.RoundTripper
	trace bool
}

func newHTTPClient() *http.Client {
	return &http.Client{
		Timeout:   10 * time.Second,
		Transport: &loggingTransport{next: http.DefaultTransport, trace: os.Getenv("CLIENT_TRACE_HTTP") == "1"},
	}
}

func (t *loggingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.trace {
		log.Printf("-> %s %s %v %s", req.Method, req.URL.RequestURI(), redacted(req.Header), bodyOf(req))
	}
	res, err := t.next.RoundTrip(req)
	switch {
	case err != nil:
		log.Printf("<- %s %s failed: %v", req.Method, req.URL.RequestURI(), err)
	case t.trace || res.StatusCode >= 400:
		log.Printf("<- %s %s %d", req.Method, req.URL.RequestURI(), res.StatusCode)
	}
	return res, err
}

// bodyOf reads a request's body for the trace and puts an unread copy back for the call itself.
func bodyOf(req *http.Request) string {
	if req.Body == nil || req.GetBody == nil {
		return ""
	}
	copied, err := req.GetBody()
	if err != nil {
		return ""
	}
	defer copied.Close()
	body, err := io.ReadAll(copied)
	if err != nil {
		return ""
	}
	return string(body)
}

// redacted keeps the token out of logs that a test run prints.
func redacted(headers http.Header) http.Header {
	copied := headers.Clone()
	for _, name := range []string{"Authorization", "X-Api-Key"} {
		if copied.Get(name) != "" {
			copied.Set(name, "<redacted>")
		}
	}
	return copied
}

// moduleVersion names a dependency as the binary was built with it, so the ready line reports the
// version that actually runs rather than one written by hand.
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				return path + "@" + dep.Version
			}
		}
	}
	return path + "@unknown"
}
