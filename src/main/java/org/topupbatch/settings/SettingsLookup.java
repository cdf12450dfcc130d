package org.topupbatch.settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Where a setting's value comes from: a JVM system property, else the environment variable named
 * after it ({@code topup.webhook.port} -> {@code TOPUP_WEBHOOK_PORT}), else application.properties.
 * The resolved values are handed to Camel as overrides, so routes see exactly what was checked.
 */
public final class SettingsLookup implements Function<String, String> {

    private final Properties file;
    private final Map<String, String> env;
    private final Properties system;

    public SettingsLookup(Properties file, Map<String, String> env, Properties system) {
        this.file = file;
        this.env = env;
        this.system = system;
    }

    /** The lookup a normal start uses: this JVM, this environment, the bundled application.properties. */
    public static SettingsLookup standard() {
        Properties file = new Properties();
        try (InputStream in = SettingsLookup.class.getResourceAsStream("/application.properties")) {
            if (in != null) {
                file.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read application.properties", e);
        }
        return new SettingsLookup(file, System.getenv(), System.getProperties());
    }

    public static String environmentName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    @Override
    public String apply(String key) {
        String v = system.getProperty(key);
        if (v == null) {
            v = env.get(environmentName(key));
        }
        if (v == null) {
            v = file.getProperty(key);
        }
        return v;
    }
}
