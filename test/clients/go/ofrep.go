package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/open-feature/go-sdk-contrib/providers/ofrep"
	"github.com/open-feature/go-sdk/openfeature"
)

const ofrepModule = "github.com/open-feature/go-sdk-contrib/providers/ofrep"

type ofrepEvaluator struct {
	client *openfeature.Client
}

type ofrepCase struct {
	Flag    string          `json:"flag"`
	Type    string          `json:"type"`
	Default json.RawMessage `json:"default"`
	Context map[string]any  `json:"context"`
}

// ofrepResult is the OpenFeature SDK's evaluation details; an empty string from the SDK is the protocol's null.
type ofrepResult struct {
	Value     any            `json:"value"`
	Variant   *string        `json:"variant"`
	Reason    *string        `json:"reason"`
	ErrorCode *string        `json:"errorCode"`
	Metadata  map[string]any `json:"metadata"`
}

func startOfrep(config settings) (evaluator, string, error) {
	provider := ofrep.NewProvider(
		strings.TrimSuffix(config.url, "/"),
		ofrep.WithApiKeyAuth(config.token),
		ofrep.WithClient(newHTTPClient()),
	)
	if err := openfeature.SetProviderAndWait(provider); err != nil {
		return nil, "", fmt.Errorf("initialising the OFREP provider: %w", err)
	}
	return &ofrepEvaluator{client: openfeature.NewDefaultClient()}, moduleVersion(ofrepModule), nil
}

func (e *ofrepEvaluator) evaluate(raw json.RawMessage) (any, error) {
	var c ofrepCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("not an ofrep case: %w", err)
	}
	evalCtx := evaluationContext(c.Context)
	ctx := context.Background()
	switch c.Type {
	case "boolean":
		var fallback bool
		if err := json.Unmarshal(c.Default, &fallback); err != nil {
			return nil, fmt.Errorf("default of a boolean case: %w", err)
		}
		details, _ := e.client.BooleanValueDetails(ctx, c.Flag, fallback, evalCtx)
		return resultOf(details.Value, details.ResolutionDetail), nil
	case "string":
		var fallback string
		if err := json.Unmarshal(c.Default, &fallback); err != nil {
			return nil, fmt.Errorf("default of a string case: %w", err)
		}
		details, _ := e.client.StringValueDetails(ctx, c.Flag, fallback, evalCtx)
		return resultOf(details.Value, details.ResolutionDetail), nil
	case "number":
		var fallback float64
		if err := json.Unmarshal(c.Default, &fallback); err != nil {
			return nil, fmt.Errorf("default of a number case: %w", err)
		}
		details, _ := e.client.FloatValueDetails(ctx, c.Flag, fallback, evalCtx)
		return resultOf(details.Value, details.ResolutionDetail), nil
	case "object":
		var fallback any
		if err := json.Unmarshal(c.Default, &fallback); err != nil {
			return nil, fmt.Errorf("default of an object case: %w", err)
		}
		details, _ := e.client.ObjectValueDetails(ctx, c.Flag, fallback, evalCtx)
		return resultOf(details.Value, details.ResolutionDetail), nil
	default:
		return nil, fmt.Errorf("unknown ofrep case type %q", c.Type)
	}
}

// evaluationContext gives the protocol's context to the SDK unchanged: targetingKey as the
// context's targeting key, every other attribute as it came.
func evaluationContext(attributes map[string]any) openfeature.EvaluationContext {
	rest := make(map[string]any, len(attributes))
	for name, value := range attributes {
		rest[name] = value
	}
	if key, ok := rest["targetingKey"].(string); ok {
		delete(rest, "targetingKey")
		return openfeature.NewEvaluationContext(key, rest)
	}
	return openfeature.NewTargetlessEvaluationContext(rest)
}

func resultOf(value any, detail openfeature.ResolutionDetail) ofrepResult {
	metadata := map[string]any{}
	for name, entry := range detail.FlagMetadata {
		metadata[name] = entry
	}
	return ofrepResult{
		Value:     value,
		Variant:   nullIfEmpty(detail.Variant),
		Reason:    nullIfEmpty(string(detail.Reason)),
		ErrorCode: nullIfEmpty(string(detail.ErrorCode)),
		Metadata:  metadata,
	}
}

func nullIfEmpty(text string) *string {
	if text == "" {
		return nil
	}
	return &text
}

func (e *ofrepEvaluator) close() {
	openfeature.Shutdown()
}
