package toggles.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openfeature.sdk.MutableContext;
import dev.openfeature.sdk.MutableStructure;
import dev.openfeature.sdk.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON to OpenFeature's Value and back, keeping each JSON type as the SDK's own. */
final class OpenFeatureValues {
    private OpenFeatureValues() {}

    /**
     * The protocol's context is already OpenFeature's, so every attribute, targetingKey included,
     * goes in with its JSON type: a context the service must refuse reaches it as it was written.
     */
    static MutableContext context(JsonNode json) {
        Map<String, Value> attributes = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            attributes.put(field.getKey(), value(field.getValue()));
        }
        return new MutableContext(attributes);
    }

    static Value value(JsonNode json) {
        if (json == null || json.isNull() || json.isMissingNode()) return new Value();
        if (json.isBoolean()) return new Value(json.booleanValue());
        if (json.isTextual()) return new Value(json.textValue());
        if (json.isInt()) return new Value(json.intValue());
        if (json.isIntegralNumber() && json.canConvertToLong()) return new Value(json.longValue());
        if (json.isNumber()) return new Value(json.doubleValue());
        if (json.isArray()) {
            List<Value> items = new ArrayList<>();
            for (JsonNode item : json) items.add(value(item));
            return new Value(items);
        }
        Map<String, Value> members = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            members.put(field.getKey(), value(field.getValue()));
        }
        return new Value(new MutableStructure(members));
    }

    static JsonNode json(Value value) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (value == null || value.isNull()) return nodes.nullNode();
        if (value.isBoolean()) return nodes.booleanNode(value.asBoolean());
        if (value.isString()) return nodes.textNode(value.asString());
        if (value.isNumber()) return Evaluator.JSON.valueToTree(value.asObject());
        if (value.isInstant()) return nodes.textNode(value.asInstant().toString());
        if (value.isList()) {
            ArrayNode items = nodes.arrayNode();
            for (Value item : value.asList()) items.add(json(item));
            return items;
        }
        ObjectNode members = nodes.objectNode();
        for (Map.Entry<String, Value> member : value.asStructure().asMap().entrySet()) {
            members.set(member.getKey(), json(member.getValue()));
        }
        return members;
    }
}
