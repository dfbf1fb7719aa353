package toggles.clients;

import com.fasterxml.jackson.databind.JsonNode;

/** One started client: the Unleash SDK or the OpenFeature SDK with its OFREP provider. */
interface ClientUnderTest {
    /** The package and version for the ready line, as its registry names them. */
    String identity();

    /** One case of the protocol in, one result out. */
    JsonNode evaluate(JsonNode evaluationCase);

    /** Closes the client as an application would on shutdown. */
    void close();
}
