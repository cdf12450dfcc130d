package org.topupbatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.topupbatch.settings.SettingsException;
import org.topupbatch.settings.SettingsLookup;

/** topup.node-name: the configured name, else the host name (docs/two-nodes.md#two-nodes), refused in one line when unfit. */
class NodeNameTest {

    @Test
    void a_configured_name_is_used_as_written() {
        assertThat(NodeName.resolve(Map.of("topup.node-name", " topup-a ")::get)).isEqualTo("topup-a");
        // as a run reads it: the environment variable, the system property, the properties file
        assertThat(NodeName.resolve(new SettingsLookup(new Properties(), Map.of("TOPUP_NODE_NAME", "topup-b"), new Properties())))
                .isEqualTo("topup-b");
        Properties system = new Properties();
        system.setProperty("topup.node-name", "node.7_x");
        assertThat(NodeName.resolve(new SettingsLookup(new Properties(), Map.of(), system))).isEqualTo("node.7_x");
        Properties file = new Properties();
        file.setProperty("topup.node-name", "from-file");
        assertThat(NodeName.resolve(new SettingsLookup(file, Map.of(), new Properties()))).isEqualTo("from-file");
        assertThat(NodeName.resolve(Map.of("topup.node-name", "n".repeat(40))::get)).as("40 characters fit").hasSize(40);
    }

    @Test
    void without_a_name_the_host_name_is_used_plain_and_short() throws Exception {
        String host = InetAddress.getLocalHost().getHostName();
        // the documented default: the host name; characters a name cannot carry become '-', cut to 40
        String plain = host.replaceAll("[^A-Za-z0-9._-]", "-");
        String expected = plain.length() > 40 ? plain.substring(0, 40) : plain;

        String name = NodeName.resolve(Map.<String, String>of()::get);
        System.out.printf("host %s -> node name %s%n", host, name);
        assertThat(name).matches("[A-Za-z0-9._-]{1,40}");
        assertThat(name).as("the host name %s", host).isEqualTo(expected);
        assertThat(NodeName.resolve(Map.of("topup.node-name", "  ")::get)).as("a blank setting is no name").isEqualTo(expected);
        assertThat(NodeName.resolve(new SettingsLookup(new Properties(), Map.of(), new Properties()))).isEqualTo(expected);
    }

    @Test
    void a_name_a_log_line_or_the_database_could_not_carry_is_refused_naming_the_setting() {
        assertThatThrownBy(() -> NodeName.resolve(Map.of("topup.node-name", "node a; drop")::get))
                .isInstanceOf(SettingsException.class)
                .hasMessage("topup.node-name 'node a; drop' must be 1 to 40 letters, digits, '.', '_' or '-'"
                        + " (set TOPUP_NODE_NAME, e.g. topup-a)");
        for (String bad : new String[] {"n".repeat(41), "-leading-dash", ".hidden", "tab\there", "ünï"}) {
            assertThatThrownBy(() -> NodeName.resolve(Map.of("topup.node-name", bad)::get))
                    .as(bad)
                    .isInstanceOf(SettingsException.class)
                    .hasMessageStartingWith("topup.node-name '" + bad.trim() + "' must be 1 to 40 letters")
                    .hasMessageEndingWith("(set TOPUP_NODE_NAME, e.g. topup-a)")
                    .satisfies(e -> assertThat(e.getMessage().trim()).as("one line").doesNotContain("\n", "\r"));
        }
    }
}
