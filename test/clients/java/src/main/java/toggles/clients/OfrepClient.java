package toggles.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.openfeature.contrib.providers.ofrep.OfrepProvider;
import dev.openfeature.contrib.providers.ofrep.OfrepProviderOptions;
import dev.openfeature.sdk.Client;
import dev.openfeature.sdk.FlagEvaluationDetails;
import dev.openfeature.sdk.MutableContext;
import dev.openfeature.sdk.OpenFeatureAPI;
import dev.openfeature.sdk.Value;

/**
 * The OpenFeature Java SDK (dev.openfeature:sdk) with the OFREP provider
 * (dev.openfeature.contrib.providers:ofrep), configured as its README shows, with the token in
 * the provider's headers option.
 */
final class OfrepClient implements ClientUnderTest {
    private final OpenFeatureAPI api;
    private final Client client;
    private final String identity;

    private OfrepClient(OpenFeatureAPI api, Client client, String identity) {
        this.api = api;
        this.client = client;
        this.identity = identity;
    }

    static OfrepClient start(Settings settings) {
        OfrepProviderOptions options = OfrepProviderOptions.builder()
                .baseUrl(settings.url)
                .headers(ImmutableMap.of("Authorization", ImmutableList.of("Bearer " + settings.token)))
                .build();
        OpenFeatureAPI api = OpenFeatureAPI.getInstance();
        api.setProviderAndWait(OfrepProvider.constructProvider(options));
        String identity = "dev.openfeature.contrib.providers:ofrep@" + Settings.versions().getProperty("ofrep");
        return new OfrepClient(api, api.getClient(settings.appName), identity);
    }

    @Override
    public String identity() {
        return identity;
    }

    @Override
    public JsonNode evaluate(JsonNode evaluationCase) {
        String flag = evaluationCase.path("flag").asText();
        String type = evaluationCase.path("type").asText();
        JsonNode fallback = evaluationCase.path("default");
        MutableContext context = OpenFeatureValues.context(evaluationCase.path("context"));
        switch (type) {
            case "boolean":
                return details(client.getBooleanDetails(flag, requireType(fallback, fallback.isBoolean(), type).asBoolean(), context));
            case "string":
                return details(client.getStringDetails(flag, requireType(fallback, fallback.isTextual(), type).asText(), context));
            case "number":
                return number(flag, requireType(fallback, fallback.isNumber(), type), context);
            case "object":
                requireType(fallback, fallback.isObject() || fallback.isArray(), type);
                return details(client.getObjectDetails(flag, OpenFeatureValues.value(fallback), context));
            default:
                throw new IllegalArgumentException("ofrep case type must be boolean, string, number or object, not " + type);
        }
    }

    /**
     * Java has no one number type: an application asks for an Integer or a Double, and the provider
     * answers TYPE_MISMATCH when the JSON number read is the other kind. The default says which the
     * caller wants: a whole default asks for an Integer, any other for a Double.
     */
    private JsonNode number(String flag, JsonNode fallback, MutableContext context) {
        if (fallback.canConvertToInt() && fallback.isIntegralNumber()) {
            return details(client.getIntegerDetails(flag, fallback.asInt(), context));
        }
        return details(client.getDoubleDetails(flag, fallback.asDouble(), context));
    }

    private static JsonNode requireType(JsonNode fallback, boolean matches, String type) {
        if (!matches) throw new IllegalArgumentException("the default of a " + type + " case must be a " + type + ": " + fallback);
        return fallback;
    }

    private static <T> ObjectNode details(FlagEvaluationDetails<T> details) {
        ObjectNode node = Evaluator.JSON.createObjectNode();
        Object value = details.getValue();
        node.set("value", value instanceof Value ? OpenFeatureValues.json((Value) value) : Evaluator.JSON.valueToTree(value));
        node.put("variant", details.getVariant());
        node.put("reason", details.getReason());
        node.put("errorCode", details.getErrorCode() == null ? null : details.getErrorCode().name());
        node.set("metadata", Evaluator.JSON.valueToTree(details.getFlagMetadata().asUnmodifiableMap()));
        if (details.getErrorMessage() != null) System.err.println(details.getFlagKey() + ": " + details.getErrorMessage());
        return node;
    }

    @Override
    public void close() {
        api.shutdown();
    }
}
