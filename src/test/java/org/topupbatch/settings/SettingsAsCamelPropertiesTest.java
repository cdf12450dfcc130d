package org.topupbatch.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Settings and Camel's placeholders are one system: what {@link Settings} checked is what a route's
 * {@code {{topup....}}} reads, in the same order of precedence (system property, environment,
 * application.properties), also where Camel's own order would differ.
 */
class SettingsAsCamelPropertiesTest {

    private final CamelContext camel = new DefaultCamelContext();

    @AfterEach
    void stop() throws Exception {
        System.clearProperty("topup.webhook.path");
        camel.close();
    }

    private SettingsLookup lookup(Map<String, String> env) {
        Properties file = new Properties();
        file.setProperty("topup.webhook.path", "/from-file");
        file.setProperty("topup.submit.concurrency", "16");
        file.setProperty("camel.main.name", "from-the-lookup");
        return new SettingsLookup(file, env, System.getProperties());
    }

    @Test
    void aPlaceholderReadsTheValueTheSettingsChecked() {
        SettingsLookup lookup = lookup(Map.of("TOPUP_WEBHOOK_PATH", "/from-env"));
        lookup.asCamelSource(camel);
        assertThat(camel.resolvePropertyPlaceholders("{{topup.webhook.path}}"))
                .isEqualTo("/from-env").isEqualTo(Settings.load(lookup).webhook().path());
        assertThat(camel.resolvePropertyPlaceholders("{{topup.submit.concurrency}}")).isEqualTo("16");
    }

    @Test
    void aSystemPropertyWinsOverTheEnvironmentInBoth() {
        System.setProperty("topup.webhook.path", "/from-system");
        SettingsLookup lookup = lookup(Map.of("TOPUP_WEBHOOK_PATH", "/from-env"));
        lookup.asCamelSource(camel);
        assertThat(camel.resolvePropertyPlaceholders("{{topup.webhook.path}}"))
                .isEqualTo("/from-system").isEqualTo(Settings.load(lookup).webhook().path());
    }

    @Test
    void otherKeysAreLeftToCamel() {
        lookup(Map.of()).asCamelSource(camel);
        assertThat(camel.resolvePropertyPlaceholders("{{camel.main.name:camel's own}}")).isEqualTo("camel's own");
        assertThat(camel.resolvePropertyPlaceholders("{{topup.no-such-setting:dflt}}")).isEqualTo("dflt");
    }
}
