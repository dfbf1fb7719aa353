module serverless-toggles/test/clients/go

go 1.26.0

require (
	github.com/Unleash/unleash-go-sdk/v5 v5.1.0
	github.com/open-feature/go-sdk v1.20.0
	github.com/open-feature/go-sdk-contrib/providers/ofrep v0.1.7
)

require (
	github.com/Masterminds/semver/v3 v3.3.1 // indirect
	github.com/launchdarkly/eventsource v1.10.0 // indirect
	github.com/stretchr/objx v0.5.3 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/twmb/murmur3 v1.1.8 // indirect
	go.uber.org/mock v0.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
