package org.topupbatch.settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import org.apache.camel.CamelContext;
import org.apache.camel.Ordered;
import org.apache.camel.spi.PropertiesSource;

/**
 * Where a setting's value comes from: a JVM system property, else the environment variable named
 * after it ({@code topup.webhook.port} -> {@code TOPUP_WEBHOOK_PORT}), else application.properties.
 *
 * <p>One system with Camel's: a run adds this lookup to Camel's properties component as its first
 * source of {@code topup.*} keys ({@link #asCamelSource}), so a {@code {{topup....}}} placeholder or
 * an {@code @PropertyInject} reads exactly the value {@link Settings} checked, in the same order of
 * precedence. (Camel's own order lets an environment variable win over a system property.)
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

    /**
     * Makes this lookup the one {@code camel} reads {@code topup.*} keys from: first among its
     * sources, and Camel's own environment-variable look-up off, so that no other order of
     * precedence can answer. Other keys ({@code camel.*}) resolve as Camel resolves them.
     */
    public void asCamelSource(CamelContext camel) {
        org.apache.camel.spi.PropertiesComponent pc = camel.getPropertiesComponent();
        if (pc.getPropertiesSource(SOURCE) == null) {
            pc.addPropertiesSource(new Source());
        }
        if (pc instanceof org.apache.camel.component.properties.PropertiesComponent camelOwn) {
            camelOwn.setEnvironmentVariableMode(org.apache.camel.component.properties.PropertiesComponent.ENVIRONMENT_VARIABLES_MODE_NEVER);
        }
    }

    static final String SOURCE = "topup-settings";

    /** This lookup as Camel's properties source: topup.* keys only, before every other source. */
    private final class Source implements PropertiesSource, Ordered {
        @Override
        public String getName() {
            return SOURCE;
        }

        @Override
        public String getProperty(String name) {
            String value = name.startsWith("topup.") ? apply(name) : null;
            return value == null ? null : value.trim(); // as Settings reads it
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST;
        }
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
