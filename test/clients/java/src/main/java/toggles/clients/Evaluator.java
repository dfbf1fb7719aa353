package toggles.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The evaluator protocol of test/clients/README.md for Java: reads the CLIENT_* variables, starts
 * the Unleash SDK or the OpenFeature SDK with its OFREP provider, and answers one JSON line on
 * standard output for each JSON line read from standard input.
 */
public final class Evaluator {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The only stream the protocol's lines go to; everything else printed goes to standard error. */
    private static final PrintStream PROTOCOL =
            new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    private Evaluator() {}

    public static void main(String[] args) throws Exception {
        // A library that prints to System.out would corrupt the protocol, so only PROTOCOL keeps it.
        System.setOut(System.err);

        ClientUnderTest client;
        try {
            client = start(Settings.fromEnvironment());
        } catch (Exception error) {
            error.printStackTrace(System.err);
            ObjectNode failure = JSON.createObjectNode().put("ready", false).put("error", describe(error));
            write(failure);
            System.exit(1);
            return;
        }
        write(JSON.createObjectNode().put("ready", true).put("client", client.identity()));

        boolean stopped = serve(client);
        if (!stopped) client.close();
        // Both SDKs leave non-daemon threads behind (the OFREP provider's HTTP executor, the Unleash
        // SDK's OkHttp pool), so the process ends here rather than when they idle out.
        System.exit(0);
    }

    private static ClientUnderTest start(Settings settings) throws Exception {
        switch (settings.kind) {
            case "sdk":
                return UnleashSdkClient.start(settings);
            case "ofrep":
                return OfrepClient.start(settings);
            default:
                throw new IllegalArgumentException("CLIENT_KIND must be sdk or ofrep, not " + settings.kind);
        }
    }

    /** Answers each request line until a stop request or the end of input; true when stopped. */
    private static boolean serve(ClientUnderTest client) throws Exception {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = input.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonNode id = null;
            try {
                JsonNode request = JSON.readTree(line);
                id = request.get("id");
                String op = request.path("op").asText();
                if (op.equals("evaluate")) {
                    write(answer(id).set("results", evaluateAll(client, request.path("cases"))));
                } else if (op.equals("stop")) {
                    client.close();
                    write(answer(id).put("stopped", true));
                    return true;
                } else {
                    throw new IllegalArgumentException("unknown op: " + op);
                }
            } catch (Exception error) {
                error.printStackTrace(System.err);
                write(answer(id).put("error", describe(error)));
            }
        }
        return false;
    }

    private static ArrayNode evaluateAll(ClientUnderTest client, JsonNode cases) {
        if (!cases.isArray()) throw new IllegalArgumentException("cases must be an array");
        ArrayNode results = JSON.createArrayNode();
        for (JsonNode evaluationCase : cases) results.add(client.evaluate(evaluationCase));
        return results;
    }

    private static ObjectNode answer(JsonNode id) {
        ObjectNode answer = JSON.createObjectNode();
        answer.set("id", id);
        return answer;
    }

    private static String describe(Throwable error) {
        return error.getMessage() == null ? error.getClass().getName() : error.getMessage();
    }

    private static synchronized void write(JsonNode line) {
        try {
            PROTOCOL.println(JSON.writeValueAsString(line));
        } catch (Exception error) {
            throw new IllegalStateException(error);
        }
    }
}
