package toggles.clients;

import java.io.InputStream;
import java.util.Properties;

/** The CLIENT_* variables the suite starts an evaluator with. */
final class Settings {
    final String kind;
    final String url;
    final String token;
    final String appName;
    final String environment;
    final long refreshSeconds;
    final long metricsSeconds;

    private Settings(
            String kind,
            String url,
            String token,
            String appName,
            String environment,
            long refreshSeconds,
            long metricsSeconds) {
        this.kind = kind;
        this.url = url;
        this.token = token;
        this.appName = appName;
        this.environment = environment;
        this.refreshSeconds = refreshSeconds;
        this.metricsSeconds = metricsSeconds;
    }

    static Settings fromEnvironment() {
        return new Settings(
                required("CLIENT_KIND"),
                required("CLIENT_URL"),
                required("CLIENT_TOKEN"),
                required("CLIENT_APP_NAME"),
                optional("CLIENT_ENVIRONMENT", "default"),
                seconds("CLIENT_REFRESH_SECONDS", 15),
                seconds("CLIENT_METRICS_SECONDS", 60));
    }

    /** The versions Maven built this evaluator with (src/main/resources, filtered from pom.xml). */
    static Properties versions() {
        Properties versions = new Properties();
        try (InputStream stream = Settings.class.getResourceAsStream("/evaluator-versions.properties")) {
            if (stream == null) throw new IllegalStateException("evaluator-versions.properties is missing");
            versions.load(stream);
        } catch (java.io.IOException error) {
            throw new IllegalStateException(error);
        }
        return versions;
    }

    private static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " is not set");
        return value;
    }

    private static String optional(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static long seconds(String name, long fallback) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) return fallback;
        try {
            long seconds = Long.parseLong(value);
            if (seconds > 0) return seconds;
        } catch (NumberFormatException ignored) {
            // reported below with the variable's name
        }
        throw new IllegalArgumentException(name + " must be a whole number of seconds above 0, not " + value);
    }
}
