package toggles.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.getunleash.DefaultUnleash;
import io.getunleash.UnleashContext;
import io.getunleash.UnleashException;
import io.getunleash.util.UnleashConfig;
import io.getunleash.variant.Payload;
import io.getunleash.variant.Variant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** The official Unleash Java SDK (io.getunleash:unleash-client-java), configured as a service would. */
final class UnleashSdkClient implements ClientUnderTest {
    private final DefaultUnleash unleash;
    private final Path backupFolder;
    private final String identity;

    private UnleashSdkClient(DefaultUnleash unleash, Path backupFolder, String identity) {
        this.unleash = unleash;
        this.backupFolder = backupFolder;
        this.identity = identity;
    }

    static UnleashSdkClient start(Settings settings) throws IOException {
        // The SDK starts from its backup file when one exists; a folder of this run's own keeps a
        // previous run's flags (same app name, same default path) from answering before the fetch.
        Path backupFolder = Files.createTempDirectory("unleash-java-evaluator");
        AtomicReference<UnleashException> startupFailure = new AtomicReference<>();
        UnleashConfig config = UnleashConfig.builder()
                .unleashAPI(settings.url)
                .apiKey(settings.token)
                .appName(settings.appName)
                .instanceId(settings.appName + "-" + ProcessHandle.current().pid())
                .environment(settings.environment)
                .fetchTogglesInterval(settings.refreshSeconds)
                .sendMetricsInterval(settings.metricsSeconds)
                .backupFile(backupFolder.resolve("features.json").toString())
                // The ready line promises one fetch done: the constructor fetches before it returns,
                // and a refused first fetch comes back here instead of being thrown.
                .synchronousFetchOnInitialisation(true)
                .startupExceptionHandler(startupFailure::set)
                .build();
        DefaultUnleash unleash = new DefaultUnleash(config);
        UnleashSdkClient client = new UnleashSdkClient(
                unleash, backupFolder, "io.getunleash:unleash-client-java@" + Settings.versions().getProperty("unleash"));
        if (startupFailure.get() != null) {
            client.close();
            throw startupFailure.get();
        }
        return client;
    }

    @Override
    public String identity() {
        return identity;
    }

    @Override
    public JsonNode evaluate(JsonNode evaluationCase) {
        String flag = evaluationCase.path("flag").asText();
        UnleashContext context = context(evaluationCase.path("context"));
        String type = evaluationCase.path("type").asText();
        ObjectNode result = Evaluator.JSON.createObjectNode();
        switch (type) {
            case "boolean":
                return result.put("enabled", unleash.isEnabled(flag, context));
            case "variant":
                result.set("variant", variant(unleash.getVariant(flag, context)));
                return result;
            default:
                throw new IllegalArgumentException("sdk case type must be boolean or variant, not " + type);
        }
    }

    private static ObjectNode variant(Variant variant) {
        ObjectNode node = Evaluator.JSON.createObjectNode()
                .put("name", variant.getName())
                .put("enabled", variant.isEnabled());
        // The SDK fills a variant without a payload with a string payload whose value is null; it
        // is the SDK's way of saying none, so it is reported as none.
        Optional<Payload> payload = variant.getPayload().filter(p -> p.getValue() != null);
        if (payload.isPresent()) {
            node.putObject("payload").put("type", payload.get().getType()).put("value", payload.get().getValue());
        } else {
            node.putNull("payload");
        }
        return node.put("featureEnabled", variant.isFeatureEnabled());
    }

    /** The protocol's context is Unleash's own, so each field goes to the builder method of its name. */
    static UnleashContext context(JsonNode json) {
        UnleashContext.Builder builder = UnleashContext.builder();
        if (json.hasNonNull("userId")) builder.userId(json.get("userId").asText());
        if (json.hasNonNull("sessionId")) builder.sessionId(json.get("sessionId").asText());
        if (json.hasNonNull("remoteAddress")) builder.remoteAddress(json.get("remoteAddress").asText());
        if (json.hasNonNull("environment")) builder.environment(json.get("environment").asText());
        if (json.hasNonNull("appName")) builder.appName(json.get("appName").asText());
        if (json.hasNonNull("currentTime")) builder.currentTime(time(json.get("currentTime").asText()));
        Iterator<Map.Entry<String, JsonNode>> properties = json.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            if (!property.getValue().isNull()) builder.addProperty(property.getKey(), property.getValue().asText());
        }
        return builder.build();
    }

    /** ISO 8601 with a zone or an offset, or a local time read as UTC (the spec's dates have a Z). */
    private static ZonedDateTime time(String text) {
        try {
            return ZonedDateTime.parse(text);
        } catch (DateTimeParseException notZoned) {
            try {
                return OffsetDateTime.parse(text).toZonedDateTime();
            } catch (DateTimeParseException notOffset) {
                return LocalDateTime.parse(text).atZone(ZoneOffset.UTC);
            }
        }
    }

    @Override
    public void close() {
        unleash.shutdown();
        try {
            Files.deleteIfExists(backupFolder.resolve("features.json"));
            Files.deleteIfExists(backupFolder);
        } catch (IOException error) {
            System.err.println("could not remove the backup folder " + backupFolder + ": " + error);
        }
    }
}
